// Theoretical occupancy against figures from NVIDIA's occupancy calculator for an H100 (sm_90:
// 2048 threads, 32 blocks, 65536 registers and 228 KiB of shared memory per SM).
#include "harness/occupancy.hpp"

#include <gtest/gtest.h>

namespace harness {
namespace {

TEST(Occupancy, FullWhenNothingLimits) {
  const auto o = theoretical_occupancy(SmLimits{}, 256, 32, 0);
  EXPECT_EQ(o.blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(o.share, 1.0);
}

TEST(Occupancy, RegistersLimit) {
  // 64 registers x 256 threads = 16384 a block: 4 blocks, 1024 of 2048 threads.
  const auto o = theoretical_occupancy(SmLimits{}, 256, 64, 0);
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(o.share, 0.5);
  EXPECT_EQ(o.limited_by, "registers");
  // Registers go to warps in units of 256: 33 registers count as 40.
  EXPECT_EQ(theoretical_occupancy(SmLimits{}, 1024, 33, 0).blocks_per_sm, 1);
}

TEST(Occupancy, SharedMemoryLimits) {
  // 100 KB + 1 KB reserved a block: 2 blocks of 256 threads, 25%.
  const auto o = theoretical_occupancy(SmLimits{}, 256, 32, 100 * 1024);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(o.share, 0.25);
  EXPECT_EQ(o.limited_by, "shared memory");
}

TEST(Occupancy, SmallBlocksLimit) {
  // 32 blocks of 32 threads: 1024 of 2048 threads.
  const auto o = theoretical_occupancy(SmLimits{}, 32, 16, 0);
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_DOUBLE_EQ(o.share, 0.5);
  EXPECT_EQ(o.limited_by, "block size");
}

TEST(Occupancy, ReadingNamesTheLimitAndSpills) {
  KernelFacts f;
  f.block[0] = 16;
  f.block[1] = 16;
  f.registers_per_thread = 64;
  read_kernel_facts(f, SmLimits{});
  EXPECT_EQ(f.reading, "64 registers per thread limit occupancy to 50%");
  f.registers_per_thread = 32;
  f.local_bytes_per_thread = 48;
  read_kernel_facts(f, SmLimits{});
  EXPECT_NE(f.reading.find("full occupancy"), std::string::npos) << f.reading;
  EXPECT_NE(f.reading.find("48 bytes of local memory"), std::string::npos) << f.reading;
}

}  // namespace
}  // namespace harness
