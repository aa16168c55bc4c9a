// Structural checks read what a launcher actually ran on the GPU.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "harness/check.hpp"
#include "harness/launch_recorder.hpp"

namespace harness {

// Runs `launch` under the launch recorder. Returns nothing, with the check's verdict set, when
// the launches cannot be judged: recording unavailable, no kernel launched, or cudaMemcpy used.
// (cuBLAS cannot be used at all: the lab programs do not link it.)
std::optional<RecordedActivity> observe_launches(Check& check, const std::string& call,
                                                 const std::function<void()>& launch);

// Passes when every recorded launch had shared memory, `min_bytes` or more each (0: any); the
// failure names the launches without enough and ends with `advice`, the handout's words for what
// belongs in shared memory. A launch with none is diagnosed no_shared_memory.
void judge_shared_memory_use(Check& check, const RecordedActivity& activity,
                             const std::string& advice, long long min_bytes = 0);

// Runs `launch` (which must synchronize and check its errors itself) under the launch recorder and
// adds the resources of the kernels it ran to the check's record (registers, shared memory,
// spills, occupancy). Where recording is unavailable it just runs `launch`.
void record_kernel_facts(Check& check, const std::function<void()>& launch);

}  // namespace harness
