// How ctest's commands run a lab program on a student's machine (`labcheck run` for the graded
// run, `labcheck sanitize` for compute-sanitizer's pass): one request, so that both runs see the
// same program, environment and limits, and Ctrl-C stops either the same way.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "batch/run_step.hpp"

namespace grader {

// Time for the lab program to start (its CUDA context, the launcher) before the check says it
// started, and to end after its record: a hang there is stopped this soon. With the check's own
// limit it stays under ctest's TIMEOUT (the check's timeout_s + 30 s, cmake/AddLab.cmake), so the
// student reads labcheck's reason rather than ctest's bare "Timeout".
inline constexpr double kStartupSeconds = 20;
// labcheck's own status when Ctrl-C (or ctest) stopped it: 128 + SIGINT, as a shell reports it.
inline constexpr int kInterrupted = 130;

// Nothing to contain on a student's (or the instructor's own) machine: the program is their own
// build of the kit's lab program, the student's code runs in its launcher, apart. No isolation,
// the caller's environment, no resource limits; only time is watched.
sandbox::Policy student_machine_policy();

// A request to run `command` (the lab program and its arguments) for `checks`, with `seed`, on
// the student's machine: no isolation, the student's own environment (CUDA_VISIBLE_DEVICES from
// ctest's GPU resources, LAB_SEED, LABS_EMU_SCHEDULE) and no resource limits, so it works
// without bubblewrap and without root; only time is watched. Ctrl-C and SIGTERM set its
// `interrupted` flag from here on.
batch::RunRequest student_run_request(std::vector<std::string> command,
                                      std::vector<std::string> checks, std::uint64_t seed);

// Writes what the lab program prints as it comes, so the student reads it live.
void show_output(std::string_view piece);

}  // namespace grader
