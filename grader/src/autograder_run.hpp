// labgrade autograder: one submission on an autograder platform (Gradescope's run_autograder,
// PrairieLearn's grading entrypoint), graded by `labgrade batch` as a class of one, its outcome
// written in the platform's results.json (exports/gradescope.hpp, exports/prairielearn.hpp).
//
// Where bubblewrap cannot run (Docker's default seccomp profile, which Gradescope and PrairieLearn
// graders run under), --sandbox auto grades without it and says so, on the log and in the
// results: the batch's --unsandboxed, with each source compiled as nobody
// (autograder_class.hpp) and the lab program isolating the student's launcher by hand as root
// does (an unprivileged uid of its own; namespaces where the container allows them). The
// container, thrown away after the submission, is the rest of the isolation.
// docs/deploy-autograders.md says what that keeps and gives up. --sandbox required
// refuses instead: the results say the submission could not be graded.
#pragma once

#include <filesystem>
#include <string>

namespace grader {

struct AutograderOptions {
  std::string platform;              // "gradescope" or "prairielearn"
  std::string lab;                   // "lab6"
  std::filesystem::path submission;  // the platform's folder of the student's files
  std::filesystem::path results;     // the platform's results.json
  std::filesystem::path kit_dir;     // the lab's grading kit
  std::filesystem::path work;        // scratch: the class of one, the batch's output
  std::filesystem::path labgrade_executable;
  std::string sandbox = "auto";  // "auto": without bubblewrap when it cannot run; "required"
  double max_check_seconds = 0;  // 0: the spec's limits, as the batch sets them
};

// 0 when the results were written with the submission's grade (whatever it is); 2 when the grader
// could not grade it (bad options, a broken kit, no sandbox under --sandbox required), after
// writing results that say so where it can.
int run_autograder(const AutograderOptions& options);

}  // namespace grader
