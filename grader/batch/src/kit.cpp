#include "batch/kit.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "batch/digest.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw KitError(fmt::format("cannot read {}", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// kit.json's fields into `kit`; KitError naming the file when one is missing or wrong.
void read_kit_file(const fs::path& file, Kit& kit) {
  try {
    const json in = json::parse(read_file(file));
    kit.lab = in.at("lab").get<std::string>();
    kit.folder = in.at("folder").get<std::string>();
    kit.spec_path = in.at("spec").get<std::string>();
    kit.handout = in.at("handout").get<std::string>();
    kit.reference_kernel = in.value("reference_kernel", std::string());
    kit.optional_sources = in.value("optional_sources", std::vector<std::string>{});
    for (const auto& name : kit.optional_sources) {
      if (name.empty() || name.find('/') != std::string::npos || !name.ends_with(".cu")) {
        throw KitError(fmt::format("{}: optional source '{}' must be a plain .cu file name",
                                   file.string(), name));
      }
    }
    kit.backend = in.value("backend", std::string("cuda"));
    if (kit.backend != "cuda" && kit.backend != "emulation") {
      throw KitError(fmt::format("{}: backend must be cuda or emulation, not '{}'", file.string(),
                                 kit.backend));
    }
    kit.program = in.value("program", std::string());
    if (kit.program.empty()) {
      throw KitError(fmt::format("{}: a kit names its lab program (\"program\")", file.string()));
    }
    kit.nvcc = in.at("nvcc").get<std::string>();
    kit.cxx = in.at("cxx").get<std::string>();
    kit.compile_flags = in.at("compile").get<std::vector<std::string>>();
    kit.link_flags = in.at("link").get<std::vector<std::string>>();
    for (const auto& path : in.at("read_only").get<std::vector<std::string>>()) {
      kit.read_only.emplace_back(path);
    }
    kit.sanitizer = in.value("sanitizer", std::string());
    kit.cuobjdump = in.value("cuobjdump", std::string());
    kit.emulation_kit = in.value("emulation_kit", std::string());
  } catch (const json::exception& error) {
    throw KitError(fmt::format("{} is malformed: {}", file.string(), error.what()));
  }
}

}  // namespace

Kit load_kit(const fs::path& dir) {
  const auto file = dir / "kit.json";
  if (!fs::exists(file)) {
    throw KitError(
        fmt::format("no grading kit at {}: build it first (cmake --build BUILD --target {}_kit, or "
                    "grading_kits for every lab)",
                    dir.string(), dir.filename().string()));
  }
  Kit kit;
  kit.dir = dir;
  read_kit_file(file, kit);
  for (const auto& library : {"libharness.a", "libharness_core.a", "liblabs_contract.a"}) {
    if (!fs::exists(dir / "lib" / library)) {
      throw KitError(fmt::format("{} lacks lib/{}: rebuild it with the {}_kit target", dir.string(),
                                 library, kit.lab));
    }
  }
  if (!kit.program.empty() && !fs::exists(kit.program)) {
    throw KitError(fmt::format("{} lacks its lab program {}: rebuild it with the {}_kit target",
                               dir.string(), kit.program.string(), kit.lab));
  }
  try {
    kit.spec = contract::load_spec(kit.spec_path);
    // The lab program runs the checks with the spec's emulation sizes and limits: the grader's
    // view of the spec (time limits) must be the same.
    if (kit.backend == "emulation") contract::apply_overrides(kit.spec, "emulation");
  } catch (const std::exception& error) {
    throw KitError(fmt::format("the kit's lab spec does not load: {}", error.what()));
  }
  if (kit.spec.lab != kit.lab) {
    throw KitError(
        fmt::format("{} is for {}, but its spec says {}", file.string(), kit.lab, kit.spec.lab));
  }
  return kit;
}

std::string grader_fingerprint(const Kit& kit, const fs::path& labgrade_executable) {
  Digest digest;
  digest.add(read_file(kit.dir / "kit.json"));
  for (const auto& entry : fs::recursive_directory_iterator(kit.dir)) {
    if (entry.is_regular_file()) {
      digest.add(entry.path().lexically_relative(kit.dir).string());
      digest.add(read_file(entry.path()));
    }
  }
  std::error_code ignored;
  if (fs::exists(labgrade_executable, ignored)) digest.add(read_file(labgrade_executable));
  return digest.hex();
}

}  // namespace batch
