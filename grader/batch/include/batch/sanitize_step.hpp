// labgrade batch's memory and race checks, on a GPU, under compute-sanitizer:
//  - memcheck is hosted: the graded correctness run itself runs under it (hosted_memcheck_request),
//    the student's kernels alone instrumented, so that it costs no second process (starting CUDA
//    is serialised on a GPU: a second process per submission cost the 100-submission batch +35%).
//    A check with a case too large for memcheck is left, whole, to the speed run, which runs
//    without it (contract/sanitizer_run.hpp, take_checks_left_for_plain_run).
//  - racecheck, where the spec asks for it (the shared-memory labs), is a pass of its own after
//    the correctness run (sanitize_checks): each correctness check that earned something runs
//    again on its first, smallest case (LAB_SANITIZER_CASES=first).
//  - with an emulated pass (batch/emulated_pass.hpp), neither: the CPU emulator finds both, and
//    the pass (every tool, memcheck too) runs only for a submission the emulator could not look
//    at (sanitizer_plan_of).
// An out-of-bounds read or write, or a race, fails the check it happened in, even when the values
// came out right, and the check's reason names kernel.cu's line, the thread, the block and where
// the address lies ("4 bytes past the end of B"). The findings come from compute-sanitizer, which
// watches the lab program (trusted): the student's host code runs in its launcher, which the
// sanitizer does not track.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "batch/kit.hpp"
#include "batch/run_step.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"

namespace batch {

struct SanitizerPass {
  std::string sanitizer;                   // compute-sanitizer's path (the kit's)
  std::vector<std::string> tools;          // the spec's: "memcheck", "racecheck"
  std::vector<std::string> student_files;  // the files a finding may name: kernel.cu, bonus.cu
  // memcheck runs in the graded correctness run (hosted_memcheck_request) rather than in a pass.
  bool hosted_memcheck = false;
};

// Where compute-sanitizer looks in a batch of `kit` (a GPU kit with compute-sanitizer and a spec
// that names tools; otherwise nowhere).
struct SanitizerPlan {
  SanitizerPass in_runs;  // memcheck hosted in the correctness run, racecheck in a pass after it
  SanitizerPass
      fallback;  // with an emulated pass: all the tools in a pass, where it could not look
};
// With an emulated pass, memory errors and races are the emulator's to find (it checks every
// subscript against its buffer, and shared memory between barriers whatever the schedule), and
// compute-sanitizer looks only where the emulator could not: its set-up of each GPU context is
// GPU time the whole batch waits for (docs/batch-grading-h100.md).
SanitizerPlan sanitizer_plan_of(const Kit& kit, bool emulated_pass);

// Bytes compute-sanitizer leaves unallocated after each allocation in the hosted memcheck run, in
// place of the harness's guard zones: a read or write that far past a buffer is reported.
inline constexpr int kHostedMemcheckPaddingBytes = 16384;
// Runs under hosted memcheck per submission before the checks still left go to the speed run,
// without memcheck (ProgramRuns::run_hosted_memcheck says why).
inline constexpr int kHostedMemcheckRuns = 2;

struct SanitizerOutcome {
  int runs = 0;                         // sanitized runs of the lab program
  int findings = 0;                     // errors and races that failed a check
  std::set<std::string> failed_checks;  // the checks they failed
  std::vector<std::string> problems;    // a run that did not finish, in the student's outcome
  std::vector<std::string> log;         // what the sanitizer said then, for the instructor only
};

// Runs the pass (the tools of pass_tools) over the correctness checks of `records` that earned
// points, with the sandbox, GPU and seed of `request` (the correctness run's), and fails those
// with findings.
SanitizerOutcome sanitize_checks(const contract::LabSpec& spec, const SanitizerPass& pass,
                                 RunRequest request, std::vector<contract::CheckRecord>& records);

// The tools that run in the pass: the spec's, less memcheck when it is hosted.
std::vector<std::string> pass_tools(const SanitizerPass& pass);

// The correctness run `request` under memcheck, `student_kernels` (mangled names, from the
// submission's launcher) alone instrumented; every kernel when the list is empty.
RunRequest hosted_memcheck_request(const RunRequest& request, const SanitizerPass& pass,
                                   const std::vector<std::string>& student_kernels);

// What the hosted run printed (`output`): each finding in the student's files fails the
// correctness check it happened in. The records' notes of where the buffers lay are taken out.
// A run that did not finish is a problem of the outcome's and changes no verdict.
SanitizerOutcome charge_hosted_findings(const contract::LabSpec& spec, const SanitizerPass& pass,
                                        const std::string& output,
                                        std::vector<contract::CheckRecord>& records);

// Takes the records of the checks the hosted run left to the run without the sanitizer out of
// `records`, and returns their ids.
std::vector<std::string> take_checks_left_for_plain_run(
    std::vector<contract::CheckRecord>& records);

}  // namespace batch
