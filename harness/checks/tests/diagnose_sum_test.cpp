// The reduction rule (diagnose_sum.cpp) on synthetic sums: a wrong sum that is exactly the sum of
// a part of the input names the part; a sum that is no part's, a real-valued case and an output
// that is not a reduction are left to the other rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "harness/diagnose.hpp"

namespace harness {
namespace {

// Integers in -4..4, no zeros, none of them a pattern that repeats from block to block.
std::vector<float> integer_input(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    unsigned v = static_cast<unsigned>(i) * 2654435761u + 12345u;
    v ^= v >> 13;
    const int value = static_cast<int>(v % 9) - 4;
    x[i] = static_cast<float>(value != 0 ? value : 3);
  }
  return x;
}

double sum_of(const std::vector<float>& x, std::size_t first, std::size_t end) {
  double sum = 0;
  for (std::size_t i = first; i < end; ++i) sum += x[i];
  return sum;
}

LaunchShape launch(unsigned grid, unsigned block) {
  LaunchShape shape;
  shape.grid[0] = grid;
  shape.block[0] = block;
  return shape;
}

struct Sum {
  std::vector<float> x;
  std::vector<float> expected;
  std::vector<float> got;
  DiagnosisInput input(std::optional<LaunchShape> shape) const {
    DiagnosisInput in;
    in.expected = expected;
    in.got = got;
    in.rows = 1;
    in.cols = 1;
    in.launch = shape;
    in.reduced_input = x;
    return in;
  }
};

Sum sum_with(std::size_t n, double got) {
  Sum s;
  s.x = integer_input(n);
  s.expected = {static_cast<float>(sum_of(s.x, 0, n))};
  s.got = {static_cast<float>(got)};
  return s;
}

std::string diagnosis_id(const DiagnosisInput& in) {
  const auto d = diagnose_case(in);
  return d ? d->id : "none";
}

TEST(DiagnoseSum, OnlyTheFirstBlocksSumIsOneBlockSum) {
  const auto x = integer_input(5000);
  const auto d = diagnose_case(sum_with(5000, sum_of(x, 0, 256)).input(launch(20, 256)));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->id, "one_block_sum");
  EXPECT_NE(d->evidence.find("the first 256 elements"), std::string::npos) << d->evidence;
  // Each thread adds two elements as it loads: block 0's share is 512 elements.
  EXPECT_EQ(diagnosis_id(sum_with(5000, sum_of(x, 0, 512)).input(launch(10, 256))),
            "one_block_sum");
  // Without a recorded launch, the usual block sizes are tried.
  EXPECT_EQ(diagnosis_id(sum_with(5000, sum_of(x, 0, 128)).input(std::nullopt)), "one_block_sum");
}

TEST(DiagnoseSum, BlockZerosShareOfAGridStrideLoop) {
  // 4 blocks of 256 over 5000 elements: block 0 reads 0..255, 1024..1279, ...
  const auto x = integer_input(5000);
  double block0 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) block0 += (i / 256) % 4 == 0 ? x[i] : 0.0;
  const auto d = diagnose_case(sum_with(5000, block0).input(launch(4, 256)));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->id, "one_block_sum");
  EXPECT_NE(d->evidence.find("block 0 of 4"), std::string::npos) << d->evidence;
}

TEST(DiagnoseSum, TheWholeBlocksOnlyIsAGridRoundedDown) {
  const auto x = integer_input(1000);
  const auto d = diagnose_case(sum_with(1000, sum_of(x, 0, 768)).input(launch(3, 256)));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->id, "grid_too_small");
  EXPECT_NE(d->evidence.find("the last 232 were never added"), std::string::npos) << d->evidence;
}

// A launch with a thread for every element was not too small: the same sum from two blocks that
// both add to the output with a plain += (one block's sum lost) is no grid rounded down.
TEST(DiagnoseSum, ACoveringLaunchIsNoGridRoundedDown) {
  const auto x = integer_input(300);
  EXPECT_NE(diagnosis_id(sum_with(300, sum_of(x, 0, 256)).input(launch(2, 256))), "grid_too_small");
  EXPECT_EQ(diagnosis_id(sum_with(300, sum_of(x, 0, 256)).input(launch(1, 256))), "grid_too_small");
}

TEST(DiagnoseSum, ASumThatIsNoPartsIsNotNamedSo) {
  const auto x = integer_input(1000);
  const double total = sum_of(x, 0, 1000);
  for (const double got : {total + 1, total - 7, 0.0}) {
    const auto id = diagnosis_id(sum_with(1000, got).input(launch(4, 256)));
    EXPECT_NE(id, "one_block_sum") << got;
    EXPECT_NE(id, "grid_too_small") << got;
  }
}

TEST(DiagnoseSum, OnlyExactCasesOfAReduction) {
  const auto x = integer_input(1000);
  auto s = sum_with(1000, sum_of(x, 0, 256));
  // Within a tolerance many parts' sums come close by chance: no evidence.
  auto within = s.input(launch(4, 256));
  const std::vector<float> tolerance{1.0f};
  within.tolerance = tolerance;
  EXPECT_NE(diagnosis_id(within), "one_block_sum");
  // Not a reduction: no input values given.
  auto other = s.input(launch(4, 256));
  other.reduced_input = {};
  EXPECT_NE(diagnosis_id(other), "one_block_sum");
}

TEST(DiagnoseSum, AnotherBlocksShareIsNotEvidence) {
  // With thousands of blocks some block's share matches any wrong sum: only block 0's counts.
  const std::size_t n = 25600;
  const auto x = integer_input(n);
  EXPECT_NE(diagnosis_id(sum_with(n, sum_of(x, 50 * 256, 51 * 256)).input(launch(100, 256))),
            "one_block_sum");
}

}  // namespace
}  // namespace harness
