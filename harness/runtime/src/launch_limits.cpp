// The launch limits' words (harness/launch_limits.hpp). The checks go in the order a student
// reads them best: the block's thread count first (the usual mistake, a 2D block of more than
// 32 x 32), then each block dimension, then each grid dimension.
#include "harness/launch_limits.hpp"

#include <fmt/format.h>

#include "harness/mistakes.hpp"

namespace harness {
namespace {

constexpr char kAxes[3] = {'x', 'y', 'z'};

}  // namespace

std::string dims_words(const unsigned dims[3]) {
  int last = 0;
  for (int i = 1; i < 3; ++i) {
    if (dims[i] != 1) last = i;
  }
  std::string words = fmt::format("{}", dims[0]);
  for (int i = 1; i <= last; ++i) words += fmt::format(" x {}", dims[i]);
  return words;
}

std::optional<std::string> launch_over_limits(const LaunchShape& launch,
                                              const LaunchLimits& limits) {
  const unsigned long long threads = 1ULL * launch.block[0] * launch.block[1] * launch.block[2];
  if (threads > limits.threads_per_block) {
    return fmt::format("a block of {} threads; the limit is {} (blockDim {})", threads,
                       limits.threads_per_block, dims_words(launch.block));
  }
  for (int i = 0; i < 3; ++i) {
    if (launch.block[i] > limits.block[i]) {
      return fmt::format("blockDim.{} {} is over the limit of {}", kAxes[i], launch.block[i],
                         limits.block[i]);
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (launch.grid[i] > limits.grid[i]) {
      return fmt::format("gridDim.{} {} is over the limit of {}", kAxes[i], launch.grid[i],
                         limits.grid[i]);
    }
  }
  return std::nullopt;
}

Diagnosis diagnose_launch_over_limits(const std::string& words) {
  return make_diagnosis("launch_config_invalid", "the launch failed: " + words);
}

}  // namespace harness
