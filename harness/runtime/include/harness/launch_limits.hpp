// CUDA's limits on a launch's shape, and the words for a launch over them. Host-only: the GPU's
// replay (src/student/student_runtime.cpp, the limits read from the device) and the emulation's
// (src/student/emulated_runtime.cpp, CUDA's limits) refuse the same launches in the same words,
// and the words are unit-tested without a GPU.
#pragma once

#include <optional>
#include <string>

#include "harness/contract.hpp"
#include "harness/launch_shape.hpp"

namespace harness {

// The defaults are CUDA's for every GPU since compute capability 3.0 (the H100's too).
struct LaunchLimits {
  unsigned threads_per_block = 1024;
  unsigned block[3] = {1024, 1024, 64};
  unsigned grid[3] = {2147483647u, 65535, 65535};
};

// "128 x 128": the dimensions up to the last one that is not 1 ("256", "32 x 8", "1 x 1 x 128").
std::string dims_words(const unsigned dims[3]);

// Why CUDA refuses a launch of this shape as over its limits (cudaErrorInvalidConfiguration), or
// nothing. "a block of 16384 threads; the limit is 1024 (blockDim 128 x 128)", "gridDim.y 70000
// is over the limit of 65535". A zero dimension is not over a limit: it launches nothing, the
// mistake of a grid rounded down (grid_too_small), and is left to the caller.
std::optional<std::string> launch_over_limits(const LaunchShape& launch,
                                              const LaunchLimits& limits = {});

// The words for a launch with a zero dimension (0 blocks from size / BLOCK below the block size).
// diagnose_launch_error names it grid_too_small from them.
inline constexpr const char* kEmptyLaunchWords =
    "a grid or block with a zero dimension launches nothing (cudaErrorInvalidConfiguration)";

// The diagnosis of a launch refused as over the limits: `launch_config_invalid` with the words
// above as the evidence ("the launch failed: ...").
Diagnosis diagnose_launch_over_limits(const std::string& words);

}  // namespace harness
