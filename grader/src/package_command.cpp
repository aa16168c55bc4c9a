#include "package_command.hpp"

#include <stdlib.h>

#include <cstdio>
#include <map>
#include <random>

#include <fmt/format.h>

#include "batch/files.hpp"
#include "package_files.hpp"
#include "zip_writer.hpp"

namespace grader {
namespace {

namespace fs = std::filesystem;

// The file that marks a folder as a package, so that writing one again may replace it.
constexpr const char* kMarker = ".labgrade-package";

// A folder of its own under the system's temporary folder, removed when done.
struct Staging {
  fs::path dir;
  Staging() {
    std::string pattern = (fs::temp_directory_path() / "labgrade-package-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw PackageError("cannot make a temporary folder");
    dir = pattern;
  }
  ~Staging() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

// A version 4 UUID: PrairieLearn identifies a question by its info.json's "uuid".
std::string random_uuid() {
  std::random_device device;
  std::uniform_int_distribution<int> hex(0, 15);
  std::string uuid = "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx";
  for (char& ch : uuid) {
    if (ch == 'x') ch = "0123456789abcdef"[hex(device)];
    if (ch == 'y') ch = "89ab"[hex(device) % 4];
  }
  return uuid;
}

std::map<std::string, std::string> template_values(const PackageOptions& options,
                                                   const PackagedLab& lab) {
  return {{"LAB", lab.id},
          {"FOLDER", lab.folder},
          {"SANDBOX", options.sandbox},
          {"VERSION", LABGRADE_VERSION},
          {"UUID", random_uuid()}};
}

void write_marker(const fs::path& folder, const PackageOptions& options, const PackagedLab& lab) {
  batch::write_whole_file(folder / kMarker, fmt::format("{} {} labgrade {}\n", options.platform,
                                                        lab.id, LABGRADE_VERSION));
}

void package_gradescope(const PackageOptions& options, const PackagedLab& lab) {
  const fs::path out = fs::absolute(options.out);
  if (!fs::is_directory(out.parent_path())) {
    throw PackageError(fmt::format("cannot write {}: {} is not a folder", out.string(),
                                   out.parent_path().string()));
  }
  const Staging staging;
  copy_project(options.source, lab, staging.dir / "project");
  const auto values = template_values(options, lab);
  write_from_template(options.source, "gradescope", "setup.sh", values, staging.dir / "setup.sh",
                      0755);
  write_from_template(options.source, "gradescope", "run_autograder", values,
                      staging.dir / "run_autograder", 0755);
  write_marker(staging.dir, options, lab);
  write_zip(staging.dir, out, options.zip_tool);
  std::printf(
      "Gradescope autograder for %s: %s\nUpload it on the assignment's Configure Autograder page "
      "with the Ubuntu 24.04 base image (docs/deploy-autograders.md).\n",
      lab.id.c_str(), out.string().c_str());
}

// An empty or missing folder, or an earlier package (replaced): never someone's other files.
void prepare_context_folder(const fs::path& out) {
  if (fs::exists(out) && !fs::is_directory(out)) {
    throw PackageError(fmt::format("{} is a file, not a folder", out.string()));
  }
  if (fs::exists(out) && !fs::is_empty(out) && !fs::exists(out / kMarker)) {
    throw PackageError(fmt::format(
        "{} is not empty and holds no earlier package: choose an empty folder", out.string()));
  }
  fs::remove_all(out);
  fs::create_directories(out);
}

void package_prairielearn(const PackageOptions& options, const PackagedLab& lab) {
  const fs::path out = fs::absolute(options.out);
  prepare_context_folder(out);
  copy_project(options.source, lab, out / "project");
  const auto values = template_values(options, lab);
  write_from_template(options.source, "prairielearn", "Dockerfile", values, out / "Dockerfile",
                      0644);
  write_from_template(options.source, "prairielearn", "grade", values, out / "grade", 0755);
  const fs::path question = out / "example-question";
  write_from_template(options.source, "prairielearn", "info.json", values, question / "info.json",
                      0644);
  write_from_template(options.source, "prairielearn", "question.html", values,
                      question / "question.html", 0644);
  write_marker(out, options, lab);
  std::printf(
      "PrairieLearn grader for %s: %s\nBuild and push the image (docker build -t "
      "<you>/labgrade-%s %s), then copy example-question/ into your course's questions/ and set "
      "its image (docs/deploy-autograders.md).\n",
      lab.id.c_str(), out.string().c_str(), lab.id.c_str(), out.string().c_str());
}

}  // namespace

int run_package(const PackageOptions& options) {
  try {
    if (!fs::is_regular_file(options.source / "CMakeLists.txt")) {
      throw PackageError(fmt::format("{} is not this project's source folder (give --source)",
                                     options.source.string()));
    }
    const PackagedLab lab = find_packaged_lab(options.source, options.lab);
    if (options.platform == "gradescope") {
      package_gradescope(options, lab);
    } else {
      package_prairielearn(options, lab);
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade package: %s\n", error.what());
    return 2;
  }
}

void add_platform_and_lab(CLI::App* command, std::string& platform, std::string& lab) {
  command->add_option("platform", platform, "gradescope or prairielearn")
      ->required()
      ->check(CLI::IsMember({"gradescope", "prairielearn"}));
  command->add_option("lab", lab, "The lab, e.g. lab6")->required();
}

PackageCommand::PackageCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "package",
      "Write an autograder package for a course platform: Gradescope's autograder zip, or "
      "PrairieLearn's grading image (build context) and an example question");
  add_platform_and_lab(command_, options_.platform, options_.lab);
  command_
      ->add_option("out", options_.out,
                   "Gradescope: the zip to write; PrairieLearn: the folder to write")
      ->required();
  options_.source = LABS_SOURCE_DIR;
  command_->add_option("--source", options_.source,
                       "The project to package (default: the one this labgrade was built from)");
  command_
      ->add_option("--sandbox", options_.sandbox,
                   "What the grader does where bubblewrap cannot run: auto (grade without it, "
                   "saying so) or required (refuse)")
      ->check(CLI::IsMember({"auto", "required"}));
  command_->add_option("--zip-tool", options_.zip_tool, "auto, zip or python3")
      ->check(CLI::IsMember({"auto", "zip", "python3"}));
}

}  // namespace grader
