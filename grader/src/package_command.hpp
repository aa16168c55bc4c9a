// labgrade package gradescope|prairielearn LAB OUT: an autograder package for a course platform
// (docs/deploy-autograders.md). Gradescope: OUT is the autograder zip (setup.sh,
// run_autograder, the project). PrairieLearn: OUT is the image's build context (Dockerfile, the
// grading entrypoint `grade`, the project) with an example question (info.json with
// externalGradingOptions, question.html). Both build the lab's grading kit with the one install
// script (scripts/packaging/install-grader.sh) and grade with `labgrade autograder`
// (autograder_run.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>

namespace grader {

struct PackageOptions {
  std::string platform;  // "gradescope" or "prairielearn"
  std::string lab;
  std::filesystem::path out;
  std::filesystem::path source;   // the project (default: the one this labgrade was built from)
  std::string sandbox = "auto";   // passed to `labgrade autograder --sandbox`
  std::string zip_tool = "auto";  // zip_writer.hpp
};

// The two arguments `labgrade package` and `labgrade autograder` begin with: the platform
// (gradescope or prairielearn) and the lab.
void add_platform_and_lab(CLI::App* command, std::string& platform, std::string& lab);

// 0 when written; 2 with one line on stderr when not (no such lab, OUT not writable, no zip tool).
int run_package(const PackageOptions& options);

class PackageCommand {
 public:
  explicit PackageCommand(CLI::App& app);
  bool chosen() const { return command_->parsed(); }
  int run() const { return run_package(options_); }

 private:
  CLI::App* command_;
  PackageOptions options_;
};

}  // namespace grader
