// The reference step: the instructor's solution, built and run like a submission before any
// student's. It must pass, or the kit or the GPU is broken; its exact outputs' digests are what
// every passing record must carry (batch/verify.hpp), and its durations set the checks' time
// limits (batch/time_limits.hpp).
#pragma once

#include "batch_state.hpp"

namespace batch {

// The reference's name in the batch's state and timeline.
inline constexpr const char* kReferenceSlug = ".reference";

// Fills batch.attestation, batch.check_limits and batch.gpu_expected. False when the reference
// does not build or fails a correctness check: the batch must not grade with this kit or GPU.
// True without running anything when the options or the kit have no reference.
bool run_reference(BatchState& batch);

}  // namespace batch
