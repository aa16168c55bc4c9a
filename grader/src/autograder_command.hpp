// labgrade autograder gradescope|prairielearn LAB SUBMISSION RESULTS: the command an autograder
// package runs for each submission (autograder_run.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include "autograder_run.hpp"

namespace grader {

class AutograderCommand {
 public:
  explicit AutograderCommand(CLI::App& app);
  bool chosen() const { return command_->parsed(); }
  int run();

 private:
  CLI::App* command_;
  AutograderOptions options_;
};

}  // namespace grader
