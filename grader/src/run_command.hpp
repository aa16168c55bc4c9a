// `labgrade run`: runs one check of a lab's test program and makes sure a record exists
// afterwards that tells the truth about how the process ended (a crash or a hang leaves no record
// of its own). Its exit status is what ctest sees.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct RunOptions {
  std::string spec;
  std::string results_dir;
  std::string check;
  double timeout_s = 120;
  std::vector<std::string> command;  // the lab program and its arguments
};

int run_check_command(const RunOptions& options);

}  // namespace grader
