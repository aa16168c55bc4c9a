// The experiment that tells a read of shared memory nobody wrote (harness/diagnose_run.hpp): the
// student's next kernel finds every multiprocessor's shared memory holding a chosen value.
#pragma once

namespace harness {

// Fills the shared memory of every multiprocessor of the current context with `value`; the GPU
// runtime runs it in the student's context right before the student's next launch.
void fill_shared_memory(float value);

}  // namespace harness
