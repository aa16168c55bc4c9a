// What ctest's self-tests of the checks expect of a lab program's run, and the decision whether
// the run met it: `labcheck expect fail` (a known-wrong kernel, the starter or a red-team case
// must be caught) and `labcheck expect pass` (a kernel written as real students write it must
// pass). The records are the run's as the verdict table decided them (batch/verdict_table.hpp,
// the same table as `labgrade batch`); here only the decision, without running anything, so that
// it can be tested on records made up for the purpose (grader/tests/expectation_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "contract/record.hpp"

namespace grader {

// How the lab program must have kept its launcher (the submission's code) from itself, as it says
// in LAB_ISOLATION_FILE (harness/runtime/src/student/launcher_isolation.hpp).
enum class IsolationExpectation {
  none,
  // A red-team case (examples/redteam/): in a run that was not isolated (no bubblewrap, not root)
  // its verdicts are a self-check, so a case not caught there is skipped instead of failing.
  or_skip,
  // The run must have isolated the launcher without bubblewrap (LABGRADE_BWRAP names none): root
  // does it by hand; skipped when not root, which cannot.
  by_hand,
  // Where bubblewrap runs on this machine, the launcher must have run in it: a launcher cannot
  // talk the lab program out of it.
  bubblewrap,
};

struct FailureExpectation {
  // Caught when at least one named check fails (a race that a schedule shows in some checks but
  // not always in all), instead of every one.
  bool any = false;
  // A named check counts as caught only if its record holds these words ("" : any failure).
  std::string reason;
  // The kernel's "// diagnosis:" ids: every named check that carries a diagnosis must carry one
  // of them, and at least one the first. Held to it on a GPU only: the emulation's schedules are
  // not the GPU's, so there its diagnoses are shown, not judged.
  std::vector<std::string> diagnoses;
  // The kernel's "// evidence:" kinds: under the CPU emulation every one must be among the facts
  // of the run's records (any check's). A kernel whose named checks are all speed checks (not
  // measured there) is then judged by its evidence alone instead of skipped.
  std::vector<std::string> evidence;
  // The checks (Suite.Name:Suite.Other) whose run gives the facts a speed check's run lacks.
  std::string evidence_checks;
  IsolationExpectation isolation = IsolationExpectation::none;
};

// What the run showed: the named checks, their records (decided by the verdict table), the
// program's output and the lab program's isolation lines.
struct RunSeen {
  std::vector<std::string> checks;
  std::vector<contract::CheckRecord> records;
  std::string output;
  std::vector<std::string> isolation_lines;
};

// The decision: what to print, one line each, and the test's exit status (0 met, 1 not met,
// 77 skipped: nothing could be judged here).
struct Judgement {
  std::vector<std::string> lines;
  int status = 0;
};

// Whether the run judged nothing at all (every record skipped or not measured: no GPU, or only
// speed checks under the CPU emulation), and the skip line that says why.
bool nothing_judged(const std::vector<contract::CheckRecord>& records);
std::string not_judged_skip_line(const std::vector<contract::CheckRecord>& records);

// The evidence kinds `expected` names that no record of `records` carries.
std::vector<std::string> missing_evidence(const std::vector<std::string>& expected,
                                          const std::vector<contract::CheckRecord>& records);

// A kernel that must fail. `evidence_rerun`: the records of the run of `evidence_checks`, when it
// ran (the named checks' records lacked a kind); their verdicts judge nothing. `bubblewrap_here`:
// the bubblewrap that runs on this machine ("" : none), asked for IsolationExpectation::bubblewrap.
struct FailureContext {
  const std::vector<contract::CheckRecord>* evidence_rerun = nullptr;
  std::string bubblewrap_here;
};
Judgement judge_failure(const FailureExpectation& expected, const RunSeen& run,
                        const FailureContext& context);

// A kernel that must pass every named check.
Judgement judge_pass(const RunSeen& run);

// The launcher's view of the machine when a root lab program isolates it by hand
// (labN.isolation.launcher_view): what the launcher, a shell script, printed ("view uid: ...",
// "view dev: ...", ...), the lab program's isolation lines, and whether the file it wrote in its
// /tmp is in the machine's (launcher_view_expectation.cpp).
struct LauncherViewSeen {
  std::string output;
  std::vector<std::string> isolation_lines;
  bool left_file_in_machine_tmp = false;
};
Judgement judge_launcher_view(const LauncherViewSeen& seen);

// A kernel whose build must fail (a call into a library the launcher does not link): the build of
// `target`, its exit status and output, and the sentences the failed build must say, e.g. "calls
// cublasSgemm_v2 (cuBLAS), which this lab does not allow" (build_expectation.cpp).
Judgement judge_build_failure(const std::string& target, int build_status,
                              const std::string& build_output,
                              const std::vector<std::string>& sentences);

}  // namespace grader
