#include "harness/compare.hpp"

#include <limits>

#include <gtest/gtest.h>

namespace harness {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> iota_matrix(int rows, int cols) {
  std::vector<float> m(static_cast<size_t>(rows) * cols);
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i + 1);
  return m;
}

TEST(Compare, IdenticalMatricesPass) {
  const auto m = iota_matrix(4, 5);
  const auto result = compare_matrices(m, m, 4, 5);
  EXPECT_EQ(result.verdict, Verdict::pass);
  EXPECT_EQ(result.mismatches, 0);
  EXPECT_EQ(result.total, 20);
  EXPECT_FALSE(result.error_map.has_value());
}

TEST(Compare, ReportsRowColumnExpectedAndGot) {
  const auto expected = iota_matrix(4, 5);
  auto got = expected;
  got[2 * 5 + 3] = -1;  // (row 2, col 3)
  const auto result = compare_matrices(expected, got, 4, 5);
  EXPECT_EQ(result.verdict, Verdict::fail);
  ASSERT_EQ(result.first_mismatches.size(), 1u);
  EXPECT_EQ(result.first_mismatches[0].row, 2);
  EXPECT_EQ(result.first_mismatches[0].col, 3);
  EXPECT_EQ(result.first_mismatches[0].expected, "14");
  EXPECT_EQ(result.first_mismatches[0].got, "-1");
  EXPECT_NE(result.reason.find("(row 2, col 3)"), std::string::npos) << result.reason;
}

TEST(Compare, NaNNeverPassesEvenWithAHugeTolerance) {
  const auto expected = iota_matrix(2, 2);
  auto got = expected;
  got[1] = kNaN;
  const std::vector<float> tolerance(4, 1e30f);
  const auto result = compare_matrices(expected, got, 2, 2, tolerance);
  EXPECT_EQ(result.verdict, Verdict::fail);
  EXPECT_EQ(result.nan_count, 1);
  EXPECT_NE(result.reason.find("never written"), std::string::npos) << result.reason;
}

TEST(Compare, InfinityNeverPasses) {
  const auto expected = iota_matrix(2, 2);
  auto got = expected;
  got[3] = std::numeric_limits<float>::infinity();
  const std::vector<float> tolerance(4, 1e30f);
  EXPECT_EQ(compare_matrices(expected, got, 2, 2, tolerance).verdict, Verdict::fail);
}

TEST(Compare, ToleranceIsPerElement) {
  const std::vector<float> expected{1, 1, 1, 1};
  const std::vector<float> got{1.05f, 1.05f, 1, 1};
  const std::vector<float> tolerance{0.1f, 0.01f, 0, 0};
  const auto result = compare_matrices(expected, got, 2, 2, tolerance);
  EXPECT_EQ(result.mismatches, 1);
  EXPECT_EQ(result.first_mismatches[0].col, 1);
  EXPECT_NEAR(result.max_abs_error, 0.05, 1e-6);
}

TEST(Compare, ListsAtMostTheRequestedNumberOfMismatches) {
  const auto expected = iota_matrix(10, 10);
  std::vector<float> got(100, kNaN);
  CompareOptions options;
  options.max_listed = 3;
  const auto result = compare_matrices(expected, got, 10, 10, {}, options);
  EXPECT_EQ(result.mismatches, 100);
  EXPECT_EQ(result.first_mismatches.size(), 3u);
  EXPECT_NE(result.reason.find("all of them still NaN"), std::string::npos) << result.reason;
}

// An unwritten last column must look like a column in the map, not like scattered noise.
TEST(Compare, ErrorMapShowsWhereTheWrongElementsAre) {
  const int rows = 256, cols = 128;
  const auto expected = iota_matrix(rows, cols);
  auto got = expected;
  for (int r = 0; r < rows; ++r) got[static_cast<size_t>(r) * cols + cols - 1] = kNaN;
  CompareOptions options;
  options.max_map_cells = 64;
  const auto result = compare_matrices(expected, got, rows, cols, {}, options);
  ASSERT_TRUE(result.error_map.has_value());
  const auto& map = *result.error_map;
  EXPECT_EQ(map.grid_rows, 64);
  EXPECT_EQ(map.grid_cols, 64);
  EXPECT_EQ(map.cell_rows, 4);
  EXPECT_EQ(map.cell_cols, 2);
  for (int r = 0; r < map.grid_rows; ++r) {
    for (int c = 0; c < map.grid_cols; ++c) {
      const float share = map.wrong_fraction[static_cast<size_t>(r) * map.grid_cols + c];
      EXPECT_FLOAT_EQ(share, c == map.grid_cols - 1 ? 0.5f : 0.0f) << r << "," << c;
    }
  }
}

TEST(Compare, SizeMismatchIsAnError) {
  EXPECT_THROW(compare_matrices(iota_matrix(2, 2), iota_matrix(2, 3), 2, 2), std::invalid_argument);
}

}  // namespace
}  // namespace harness

// The batch grader compares digests of exact outputs across runs: equal values must give equal
// digests (signed zeros included), and any changed element a different one.
TEST(OutputDigest, SameValuesSameDigestAnyChangeAnother) {
  const std::vector<float> values{1, 2, 3, 0, -4};
  const std::vector<float> negative_zero{1, 2, 3, -0.0f, -4};
  std::vector<float> changed = values;
  changed[4] = -5;
  const auto digest = harness::output_digest(values.data(), values.size());
  EXPECT_EQ(digest.size(), 16u);
  EXPECT_EQ(digest, harness::output_digest(negative_zero.data(), negative_zero.size()));
  EXPECT_NE(digest, harness::output_digest(changed.data(), changed.size()));
  EXPECT_NE(digest, harness::output_digest(values.data(), values.size() - 1));
}

TEST(OutputDigest, RecordedForExactComparisonsOnly) {
  const std::vector<float> values{1, 2, 3, 4};
  const auto exact = harness::compare_matrices(values, values, 2, 2);
  EXPECT_EQ(exact.output_digest, harness::output_digest(values.data(), values.size()));
  const auto tolerant = harness::compare_matrices(values, values, 2, 2, {0.1f, 0.1f, 0.1f, 0.1f});
  EXPECT_TRUE(tolerant.output_digest.empty());
}
