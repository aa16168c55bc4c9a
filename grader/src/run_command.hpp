// `labgrade run`: ctest's way to run one check of a lab program on a student's machine. It runs
// the program through the same runner and verdict table as `labgrade batch` (batch/run_step.hpp,
// batch/verdict_table.hpp): the records come over the grader channel, never from files, and a
// crash, a hang or an exit status that contradicts them is judged the same way. The program's
// output is shown as it comes; the record is written into the results folder for `labgrade
// report`; the exit status is what ctest sees (0 passed, 1 failed, 77 not judged: skipped).
#pragma once

#include <string>
#include <vector>

namespace grader {

struct RunOptions {
  std::string spec;
  std::string results_dir;
  std::string check;
  double timeout_s = 120;
  // The lab program and its arguments; labgrade adds --gtest_filter=<check>.
  std::vector<std::string> command;
};

int run_check_command(const RunOptions& options);

}  // namespace grader
