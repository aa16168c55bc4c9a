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

}  // namespace harness
