// Structural checks read what a launcher actually ran on the GPU.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "harness/check.hpp"
#include "harness/launch_recorder.hpp"

namespace harness {

// Runs `launch` under the launch recorder. Returns nothing, with the check's verdict set, when
// the launches cannot be judged: recording unavailable, no kernel launched, or cudaMemcpy of the
// lab's buffers where the check's spec says "forbid_copies" (a lab whose work a copy could do);
// elsewhere such copies are data movement, noted. (cuBLAS cannot be used at all: the lab
// programs do not link it.)
std::optional<RecordedActivity> observe_launches(Check& check, const std::string& call,
                                                 const std::function<void()>& launch);

// Passes when the launches that do the work had shared memory, `min_bytes` or more each (0: any):
// a launch with none and at most 1/32 of the threads of the largest launch with it is a helper
// (a one-thread kernel zeroing a sum, a last pass over partial sums), noted; a larger one fails.
// The failure names the launches and ends with `advice`, the handout's words for what belongs in
// shared memory. A launch with none is diagnosed no_shared_memory.
void judge_shared_memory_use(Check& check, const RecordedActivity& activity,
                             const std::string& advice, long long min_bytes = 0);

// Runs `launch` (which must synchronize and check its errors itself) under the launch recorder and
// adds the resources of the kernels it ran to the check's record (registers, shared memory,
// spills, occupancy). Where recording is unavailable it just runs `launch`.
void record_kernel_facts(Check& check, const std::function<void()>& launch);

}  // namespace harness
