// The one verdict table: how labgrade judges a lab program from outside, for ctest's `labgrade
// run` and for `labgrade batch` alike (both go through run_checks, batch/run_step.hpp). The rule,
// in full:
//
// Verdicts fall in three classes.
//   passed       pass.
//   failed       fail, error, inconclusive, not_run, implausible (a speed beyond what the GPU can
//                do): the lab program exits 1 (gtest fails them).
//   not judged   skipped (no GPU; a case too large for the sanitizer), not_measured (a speed check
//                under the CPU emulation), not_attempted (a bonus the student did not write). They
//                earn nothing and fail nothing: the program exits 0 for them, or 77 when nothing
//                at all was judged.
//
// A program that ended by itself is held to its exit status (contract/exit_status.hpp):
//   0   agrees when no record failed;
//   1   agrees when some record failed;
//   77  agrees when every record is skipped or not_measured. A check it sent no record for is
//       skipped ("no usable GPU"), unless a GPU is expected (the reference solution ran its
//       checks on this GPU in the same sandbox): then a skipped record or a missing one fails.
//       `labgrade run` on a student's machine expects nothing: the lab program is the student's
//       own trusted build, and the launcher (their code) cannot choose its exit status.
//   2   with no record: every check is an error (the lab program could not start them).
// A status that disagrees with the records voids them all (error: "neither is believed"). A
// crash, a time-out, a stop or any other status is charged to the check that was running; the
// rest run again (run_checks).
//
// ctest sees one check's verdict through `labgrade run`'s status: 0 passed, 1 failed, 77 not
// judged (shown as skipped, with the reason on the terminal), so a bonus not attempted or a
// machine without a GPU never reads as a failure, and never as a pass either.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "contract/record.hpp"
#include "contract/spec.hpp"

namespace batch {

// The classes are the contract's (contract/record.hpp), so the exports word them alike.
using contract::verdict_class;
using contract::VerdictClass;

// `labgrade run`'s exit status for one check's verdict: 0, 1 or 77 (as above).
int ctest_status(contract::Verdict verdict);

// How a program run ended by itself (not killed, not stopped, not timed out).
struct NormalEnd {
  int exit_code = 0;
  std::string how;   // sandbox::describe of the run: "exit code 3"
  std::string tail;  // its last lines of output, for the records' notes
};

// The records of `checks` (those the run was asked for) when the table above decides them from
// the exit status and the records the program sent; nullopt when it cannot (the program ended
// before sending them all, with a status other than 77 or 2), and run_checks charges the check
// that was running instead.
std::optional<std::map<std::string, contract::CheckRecord>> judge_normal_end(
    const contract::LabSpec& spec, const std::vector<std::string>& checks,
    const std::map<std::string, contract::CheckRecord>& records, const NormalEnd& end,
    bool gpu_expected);

// A record made by the grader for a check that produced none (no backend: nothing ran it).
contract::CheckRecord grader_record(const contract::LabSpec& spec, const std::string& check,
                                    contract::Verdict verdict, std::string reason);

}  // namespace batch
