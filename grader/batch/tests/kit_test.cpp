#include "batch/kit.hpp"

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace batch {
namespace {

namespace fs = std::filesystem;

// A kit folder as cmake/GradingKit.cmake writes one (empty libraries: load_kit only looks).
fs::path make_kit(const std::string& name, const std::string& backend) {
  const fs::path dir = fs::temp_directory_path() / ("labgrade-kit-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir / "lib");
  std::ofstream(dir / "lib" / "libharness.a") << "";
  std::ofstream(dir / "lib" / "libharness_core.a") << "";
  std::ofstream(dir / "lib" / "liblabs_contract.a") << "";
  fs::create_directories(dir / "bin");
  std::ofstream(dir / "bin" / "lab9") << "";
  std::ofstream(dir / "spec.json") << R"({"lab": "lab9", "title": "t", "dimensions": ["width"],
    "checks": [
      {"id": "Copy.Large", "kind": "correctness", "title": "large", "points": 10,
       "sizes": [[4096]], "timeout_s": 60,
       "emulation": {"sizes": [[768]], "timeout_s": 120}}]})";
  std::ofstream(dir / "kit.json") << R"({"lab": "lab9", "folder": "lab9-copy", "backend": ")" +
                                         backend + R"(", "spec": ")" +
                                         (dir / "spec.json").string() + R"(",
      "handout": "README.md", "program": ")" +
                                         (dir / "bin" / "lab9").string() + R"(",
      "nvcc": "nvcc", "cxx": "c++", "compile": [], "link": [], "read_only": []})";
  return dir;
}

// The lab program of an emulation kit runs the spec's "emulation" sizes and limits; the grader
// must time its checks by the same spec, or a slow emulated check is stopped at the GPU's limit.
TEST(Kit, AnEmulationKitGradesByTheEmulationLimits) {
  const auto emulation = load_kit(make_kit("emulation", "emulation"));
  EXPECT_EQ(emulation.backend, "emulation");
  EXPECT_DOUBLE_EQ(emulation.spec.at("Copy.Large").timeout_s, 120);
  const auto cuda = load_kit(make_kit("cuda", "cuda"));
  EXPECT_EQ(cuda.backend, "cuda");
  EXPECT_DOUBLE_EQ(cuda.spec.at("Copy.Large").timeout_s, 60);
}

// The lab program is the kit's own (trusted, built once) on both backends; a kit whose program is
// missing cannot grade and says so.
TEST(Kit, AKitWithoutItsLabProgramIsAClearError) {
  for (const std::string backend : {"cuda", "emulation"}) {
    const auto dir = make_kit("no-program-" + backend, backend);
    fs::remove(dir / "bin" / "lab9");
    try {
      load_kit(dir);
      ADD_FAILURE() << "accepted a " << backend << " kit without its lab program";
    } catch (const KitError& error) {
      EXPECT_NE(std::string(error.what()).find("lacks its lab program"), std::string::npos)
          << error.what();
    }
  }
}

TEST(Kit, AnUnknownBackendIsAClearError) {
  try {
    load_kit(make_kit("unknown", "opencl"));
    FAIL() << "accepted backend opencl";
  } catch (const KitError& error) {
    EXPECT_NE(std::string(error.what()).find("backend must be cuda or emulation"),
              std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace batch
