// `labgrade run`: ctest's way to run one check of a lab program on a student's machine. It runs
// the program through the same runner and verdict table as `labgrade batch` (batch/run_step.hpp,
// batch/verdict_table.hpp): the records come over the grader channel, never from files, and a
// crash, a hang or an exit status that contradicts them is judged the same way. The program's
// output is shown as it comes; the record is written into the results folder for `labgrade
// report`; the exit status is what ctest sees (0 passed, 1 failed, 77 not judged: skipped).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace grader {

struct RunOptions {
  std::string spec;
  std::string results_dir;
  std::string check;     // empty: every check of the spec, in one run of the program
  double timeout_s = 0;  // with --check: its limit; 0: the spec's (contract/spec.hpp)
  // The lab program and its arguments; labgrade adds --gtest_filter=<check>.
  std::vector<std::string> command;
};

int run_check_command(const RunOptions& options);

// `labgrade verdict`: one check's test when `labgrade run` ran them all (ctest's labN.run): the
// check's part of the program's output and its record's verdict, as a ctest status.
struct VerdictOptions {
  std::string results_dir;
  std::string check;
};
int verdict_command(const VerdictOptions& options);

// The note `labgrade run` adds to every record of a run whose launcher (the student's code) was
// not isolated from the lab program (no bubblewrap, and not root: the lab program says so in the
// file LAB_ISOLATION_FILE names); `labgrade report` carries it into the report and the summary.
inline constexpr std::string_view kNotIsolatedNote = "this run was not isolated";

}  // namespace grader
