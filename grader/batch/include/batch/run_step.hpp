// Runs a built lab program in the sandbox and decides, outside it, how each check ended. The
// program gets a private channel (harness/grader_channel.hpp): a one-time message with a fresh
// nonce and the secret seed, and a pipe for its records. Nothing it prints counts. A check that
// crashes, hangs or ends the program is charged to the check that was running (the program says
// which check starts before running it), and the checks after it run again in a new process.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "batch/kit.hpp"
#include "harness/record.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {

struct RunRequest {
  std::string program;              // path of the lab program inside the sandbox
  std::string launcher;             // the submission's launcher there (GPU kits), or ""
  std::vector<std::string> checks;  // check ids, in spec order
  int gpu = 0;                      // CUDA device number (CUDA_VISIBLE_DEVICES)
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
  const std::atomic<bool>* interrupted = nullptr;
};

struct RunOutcome {
  std::vector<harness::CheckRecord> records;  // one per requested check, in the same order
  std::vector<std::string> problems;          // what the grader noticed (foreign lines, ...)
  int processes = 0;                          // how many times the program was started
  bool interrupted = false;
};

RunOutcome run_checks(const Kit& kit, const RunRequest& request);

// A random 128-bit nonce as hex: every process gets its own.
std::string fresh_nonce();

// A record made by the grader for a check that produced none.
harness::CheckRecord grader_record(const harness::LabSpec& spec, const std::string& check,
                                   harness::Verdict verdict, std::string reason);

}  // namespace batch
