// `labcheck sanitize`: compute-sanitizer's pass on a student's GPU, as ctest runs it after the
// graded run (labN.sanitizer) and for the known-wrong kernels a tool must catch
// (labN.must_fail.NAME.memcheck/.racecheck). It is labgrade batch's pass (batch/sanitize_step.hpp,
// grader_sanitizer): the same command line, the same parse of the report and the same charging
// of findings to checks, so a memory error or a race costs the student the same points in ctest
// as in the batch.
//  - After a run (default): reads the run's records from --results, runs the spec's tools (or
//    --tool) over the correctness checks that earned points, each on its first case, and writes
//    back the records of the checks a finding fails, with the sanitizer's words at the line of the
//    student's file; `labcheck verdict` and `labcheck report` then show them. Findings are the
//    checks' to fail, not this command's: it exits 0 whether it found any or not.
//  - --expect-findings (a known-wrong kernel): every correctness check, every case; exits 0 when
//    a finding in the student's files was charged to at least one check (caught), 1 when none.
//  - --expect-no-findings (a right kernel): the same pass; exits 0 when nothing was charged and
//    the kit's own kernels had no finding, 1 otherwise.
// Exits 77 (skipped, with the reason) without compute-sanitizer, without a GPU (`nvidia-smi -L`
// fails, as the sanitizer tests always asked), or with nothing to look at. The pass's log for the
// kit's maintainer (findings outside the student's files, the sanitizer's raw output, which can
// name the kit's paths) goes to stderr only with LABS_SANITIZER_LOG set.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct SanitizeOptions {
  std::string spec;
  std::string results_dir;
  std::string sanitizer;           // compute-sanitizer's path; empty: not found at configure time
  std::vector<std::string> tools;  // empty: the spec's "sanitizer" tools
  std::vector<std::string> student_files{"kernel.cu", "bonus.cu"};  // a finding there is charged
  bool expect_findings = false;
  bool expect_no_findings = false;
  std::vector<std::string> command;  // the lab program and its arguments (after --)
};

int sanitize_command(const SanitizeOptions& options);

}  // namespace grader
