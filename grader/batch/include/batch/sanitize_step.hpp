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
//    at (batch/sanitizer_plan.hpp).
//  - ctest on a student's GPU (`labcheck sanitize`, grader/src/sanitize_command.hpp) runs the pass
//    as the batch's fallback does: every tool of the spec, after the graded run.
// An out-of-bounds read or write, or a race, fails the check it happened in, even when the values
// came out right, and the check's reason names kernel.cu's line, the thread, the block and where
// the address lies ("4 bytes past the end of B"). The findings come from compute-sanitizer, which
// watches the lab program (trusted): the student's host code runs in its launcher, which the
// sanitizer does not track. A library of its own (grader_sanitizer): labcheck links it without
// the rest of batch grading.
#pragma once

#include <set>
#include <string>
#include <vector>

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
  // The pass runs each check's first, smallest case (LAB_SANITIZER_CASES=first): it grades, and
  // must not hold the GPU long. A known-wrong kernel's test (`labcheck sanitize
  // --expect-findings`) runs every case: its mistake may show only on a larger one.
  bool first_case_only = true;
  // Who compute-sanitizer runs as in a batch's sandbox. Root without capabilities where the
  // toolkit is root's to read (the H100's install said "cannot open ... Permission denied" under
  // a uid of its own), but RLIMIT_NPROC never holds root: on four H200 a fork bomb under the
  // sanitizer ran the host out of tasks (46,361 of pid_max 65,536) and other submissions' runs
  // with it. False: the run's own uid, wherever every uid can read the sanitizer
  // (sanitizer_plan_of), with room for the sanitizer's threads (kSanitizedRunProcesses).
  bool as_root = true;
};

// The process cap (RLIMIT_NPROC of the run's own uid) of a run under compute-sanitizer: its
// threads, the lab program's and the launcher's, against a fork bomb's thousands.
inline constexpr int kSanitizedRunProcesses = 1024;

// The one compute-sanitizer command line every run under `tool` starts with (the lab program's
// command follows it): the batch's pass, its hosted memcheck and ctest's `labcheck sanitize`.
std::vector<std::string> sanitizer_command(const std::string& sanitizer, const std::string& tool);

// Bytes compute-sanitizer leaves unallocated after each allocation in the hosted memcheck run, in
// place of the harness's guard zones: a read or write that far past a buffer is reported.
inline constexpr int kHostedMemcheckPaddingBytes = 16384;
// Runs under hosted memcheck per submission before the checks still left go to the speed run,
// without memcheck (ProgramRuns::run_hosted_memcheck says why).
inline constexpr int kHostedMemcheckRuns = 2;

struct SanitizerOutcome {
  int runs = 0;             // sanitized runs of the lab program
  int findings = 0;         // errors and races that failed a check
  int judged_records = 0;   // the runs' records of checks that ran (not skipped: no GPU there)
  int unfinished_runs = 0;  // runs whose report did not end with the sanitizer's summary
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
