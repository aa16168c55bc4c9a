// The words for a launch over CUDA's limits (harness/launch_limits.hpp), which the GPU's replay
// and the emulation's both use: exact texts, since they are what a student reads.
#include "harness/launch_limits.hpp"

#include <gtest/gtest.h>

namespace harness {
namespace {

LaunchShape shape(unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz) {
  return LaunchShape{{gx, gy, gz}, {bx, by, bz}};
}

TEST(LaunchLimits, ABlockOfMoreThan1024ThreadsNamesItsThreadsAndShape) {
  EXPECT_EQ(launch_over_limits(shape(1, 1, 1, 128, 128, 1)),
            "a block of 16384 threads; the limit is 1024 (blockDim 128 x 128)");
  EXPECT_EQ(launch_over_limits(shape(4, 1, 1, 2048, 1, 1)),
            "a block of 2048 threads; the limit is 1024 (blockDim 2048)");
  EXPECT_EQ(launch_over_limits(shape(1, 1, 1, 8, 8, 32)),
            "a block of 2048 threads; the limit is 1024 (blockDim 8 x 8 x 32)");
}

TEST(LaunchLimits, AGridDimensionOverItsLimitIsNamed) {
  EXPECT_EQ(launch_over_limits(shape(1, 70000, 1, 256, 1, 1)),
            "gridDim.y 70000 is over the limit of 65535");
  EXPECT_EQ(launch_over_limits(shape(1, 1, 65536, 32, 32, 1)),
            "gridDim.z 65536 is over the limit of 65535");
  // x goes to 2^31 - 1: a long 1D grid is fine.
  EXPECT_EQ(launch_over_limits(shape(70000, 1, 1, 256, 1, 1)), std::nullopt);
}

TEST(LaunchLimits, ABlockDimensionOverItsLimitIsNamed) {
  EXPECT_EQ(launch_over_limits(shape(1, 1, 1, 1, 1, 128)),
            "blockDim.z 128 is over the limit of 64");
}

TEST(LaunchLimits, TheDeviceLimitsGiven) {
  LaunchLimits small;
  small.threads_per_block = 512;  // a kernel whose registers allow only 512 threads a block
  EXPECT_EQ(launch_over_limits(shape(1, 1, 1, 32, 32, 1), small),
            "a block of 1024 threads; the limit is 512 (blockDim 32 x 32)");
}

TEST(LaunchLimits, LaunchesWithinTheLimitsAndEmptyOnesAreNotOver) {
  EXPECT_EQ(launch_over_limits(shape(64, 64, 1, 32, 32, 1)), std::nullopt);
  EXPECT_EQ(launch_over_limits(shape(2147483647u, 65535, 65535, 1024, 1, 1)), std::nullopt);
  // A zero dimension launches nothing: a grid rounded down, not a launch over a limit.
  EXPECT_EQ(launch_over_limits(shape(0, 1, 1, 256, 1, 1)), std::nullopt);
}

TEST(LaunchLimits, DimsWordsDropTrailingOnes) {
  const unsigned one[3] = {256, 1, 1};
  const unsigned two[3] = {32, 8, 1};
  const unsigned three[3] = {1, 1, 128};
  EXPECT_EQ(dims_words(one), "256");
  EXPECT_EQ(dims_words(two), "32 x 8");
  EXPECT_EQ(dims_words(three), "1 x 1 x 128");
}

TEST(LaunchLimits, TheDiagnosisIsLaunchConfigInvalidWithTheWords) {
  const auto d = diagnose_launch_over_limits(
      "a block of 16384 threads; the limit is 1024 (blockDim 128 x 128)");
  EXPECT_EQ(d.id, "launch_config_invalid");
  EXPECT_EQ(d.evidence,
            "the launch failed: a block of 16384 threads; the limit is 1024 (blockDim 128 x 128)");
  EXPECT_EQ(d.handout, "#launch-refused-block-or-grid-over-the-limits");
}

}  // namespace
}  // namespace harness
