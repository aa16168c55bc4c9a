// Runs a built lab program and decides, outside it, how each check ended: `labgrade batch` in
// the sandbox, and ctest's `labgrade run` on a student's machine (a policy without isolation or
// limits), by the same verdict table (batch/verdict_table.hpp). The program gets a private channel
// (contract/grader_channel.hpp): a one-time message with a fresh nonce and the seed, and a pipe
// for its records. Nothing it prints or writes to files counts. A check that crashes, hangs or
// ends the program is charged to the check that was running (the program says which check starts
// before running it), and the checks after it run again in a new process.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "batch/verdict_table.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"
#include "sandbox/core.hpp"

namespace batch {

struct RunRequest {
  // The lab program (its path inside the sandbox) and the arguments it always gets, e.g. --spec
  // and --launcher; run_checks adds --gtest_filter with the checks still to run.
  std::vector<std::string> command;
  std::vector<std::string> checks;  // check ids, in spec order
  // CUDA device number (CUDA_VISIBLE_DEVICES is set from it); -1: the policy's environment's.
  int gpu = -1;
  std::uint64_t seed = 0;
  double max_check_seconds = 0;  // 0: each check's own timeout_s from the spec
  // Tighter limits for some checks (from the reference solution's durations); never above the
  // limit above.
  std::map<std::string, double> check_limits;
  // A kernel that hangs usually hangs in every check: after this many checks ran past their
  // limits, the rest are not run (each hang would hold the GPU for its whole limit).
  int max_hangs = 2;
  // Allowed for the program to start (CUDA context, cuBLAS) and to go from one check to the next:
  // silence longer than this with no check running ends the process.
  double startup_seconds = 30;
  // The reference solution ran its checks on a GPU in this sandbox: a program that then says "no
  // GPU" (exit 77) is not believed, and its checks fail instead of being skipped.
  bool gpu_expected = false;
  sandbox::Policy policy;  // binds, limits; the time limit is set here from the checks
  // What starts the program under `policy`: run_unisolated (a student's machine: nothing
  // contained) unless batch grading gives sandbox::run (grader_sandbox: bubblewrap, a cgroup and
  // a uid per run), which only labgrade links. run_unisolated refuses a policy that contains.
  sandbox::Runner run_program = sandbox::run_unisolated;
  const std::atomic<bool>* interrupted = nullptr;
  // If set: the program's output as it comes (`labgrade run` shows it to the student live).
  std::function<void(std::string_view)> on_output;
  // If set (the batch's shared runs): runs `work` with the machine to this run alone. A check that
  // runs past its limit while others share the machine is run once more that way before it
  // fails: an innocent kernel never loses points to the load of others.
  std::function<void(const std::function<void()>& work)> run_alone;
  // If set (the batch's speed runs): the program starts before the machine is the run's alone,
  // so that its start-up overlaps other runs; before its first check it says it is ready and
  // waits. This is called on a "ready" when the turn is not held, and returns when the run's
  // turn has come; the program then gets "go". The wait counts against no limit. The turn is
  // held until end_turn is called (once the program has recorded every check it was to run), or
  // else until run_checks returns.
  std::function<void()> take_turn;
  std::function<void()> end_turn;
};

struct RunOutcome {
  std::vector<contract::CheckRecord> records;  // one per requested check, in the same order
  std::vector<std::string> problems;           // what the grader noticed (foreign lines, ...)
  int processes = 0;                           // how many times the program was started
  bool interrupted = false;
};

// An isolated run's sandbox could not start the program (bubblewrap, the cgroup, the uid): the
// grader's failure, never the submission's. No check is charged with it; the batch grades the
// submission "grader error" (not graded: run the batch again) instead of failing its checks.
struct SandboxNotStarted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whether `error` is the host's limit on tasks refusing the grader or a lab program for now
// (EAGAIN): a std::system_error saying so (a thread of the grader's, a lab program's exit 75), or
// a sandbox not started for it (bubblewrap's own clone, a fork past its patience), before any code
// of the submission's ran. Such an attempt is tried again after a pause (grade_one,
// run_reference), never charged.
bool refused_by_host_task_limit(const std::exception& error);
// How many attempts such a refusal gets, and the pause before attempt `next` (2, 3): long enough
// for a check's time limit to end what held the host's tasks.
inline constexpr int kHostRefusalAttempts = 3;
void pause_before_attempt(int next);

// `spec` gives the checks' time limits and the grader's records their titles. Throws
// SandboxNotStarted (isolated runs only: the policy's `isolate`).
RunOutcome run_checks(const contract::LabSpec& spec, const RunRequest& request);

// A random 128-bit nonce as hex: every process gets its own.
std::string fresh_nonce();

}  // namespace batch
