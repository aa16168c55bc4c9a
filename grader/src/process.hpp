// Runs a program with a time limit, in its own process group so that everything it started can
// be stopped together.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct ProcessOutcome {
  int exit_code = -1;  // valid when neither signalled nor timed out
  int signal = 0;      // the signal that ended it, 0 if none
  bool timed_out = false;
  bool failed_to_start = false;
  double seconds = 0;
};

ProcessOutcome run_process(const std::vector<std::string>& argv, double timeout_s);

// "exit code 3", "signal SIGSEGV (Segmentation fault)", "timed out after 60 s".
std::string describe(const ProcessOutcome& outcome, double timeout_s);

}  // namespace grader
