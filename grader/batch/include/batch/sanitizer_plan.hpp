// Where compute-sanitizer looks in a batch (batch/sanitize_step.hpp runs it): hosted memcheck and
// a racecheck pass, or only a fallback pass where the emulated pass could not look. Apart from
// the pass itself because it reads the batch's Kit: the pass is grader_sanitizer's, which
// labcheck links without the rest of batch grading.
#pragma once

#include "batch/kit.hpp"
#include "batch/sanitize_step.hpp"

namespace batch {

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
// compute-sanitizer runs under the run's own uid (SanitizerPass::as_root false) when every uid
// can run it (sandbox::every_uid_can_run).
SanitizerPlan sanitizer_plan_of(const Kit& kit, bool emulated_pass);

}  // namespace batch
