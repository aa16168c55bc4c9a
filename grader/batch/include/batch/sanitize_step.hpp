// labgrade batch's memory and race pass, on a GPU: after the correctness run, the lab program runs
// again under compute-sanitizer (memcheck; racecheck too where the spec asks, in the shared-memory
// labs), each correctness check on its first, smallest case (LAB_SANITIZER_CASES=first). An
// out-of-bounds read or write, or a race, fails the check it happened in, even when the values
// came out right, and the check's reason names kernel.cu's line, the thread, the block and where
// the address lies ("4 bytes past the end of B"). The findings come from compute-sanitizer, which
// watches the lab program (trusted): the student's host code runs in its launcher, which the
// sanitizer does not track.
#pragma once

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
};

struct SanitizerOutcome {
  int runs = 0;                       // sanitized runs of the lab program
  int findings = 0;                   // errors and races that failed a check
  std::vector<std::string> problems;  // a run that did not finish, in the student's outcome
  std::vector<std::string> log;       // what the sanitizer said then, for the instructor only
};

// Runs the pass over the correctness checks of `records` that earned points, with the sandbox,
// GPU and seed of `request` (the correctness run's), and fails those with findings.
SanitizerOutcome sanitize_checks(const contract::LabSpec& spec, const SanitizerPass& pass,
                                 RunRequest request, std::vector<contract::CheckRecord>& records);

}  // namespace batch
