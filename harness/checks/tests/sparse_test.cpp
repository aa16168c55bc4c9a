// The CSR matrices of a lab's case generator (harness/sparse.hpp) and the SpMV diagnoses: CSR
// arrays that hold together, skewed and empty rows, the same lengths at every seed, and each
// classic mistake told from its output.
#include "harness/sparse.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace harness {
namespace {

TEST(SkewedCsr, ArraysHoldTogether) {
  const auto a = skewed_csr(1000, 300, 7, Fill::integers);
  ASSERT_EQ(a.row_ptr.size(), 1001u);
  EXPECT_EQ(a.row_ptr.front(), 0);
  EXPECT_EQ(a.row_ptr.back(), static_cast<int>(a.data.size()));
  EXPECT_EQ(a.col_index.size(), a.data.size());
  long long empty = 0, longest = 0;
  for (long long r = 0; r < a.rows; ++r) {
    ASSERT_LE(a.row_ptr[r], a.row_ptr[r + 1]) << "row_ptr is monotone";
    for (auto i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
      ASSERT_GE(a.col_index[i], 0);
      ASSERT_LT(a.col_index[i], 300);
      if (i > a.row_ptr[r]) ASSERT_LT(a.col_index[i - 1], a.col_index[i]) << "row " << r;
    }
    empty += a.row_length(r) == 0;
    longest = std::max(longest, a.row_length(r));
  }
  EXPECT_NEAR(static_cast<double>(empty) / a.rows, 0.125, 0.01);
  EXPECT_EQ(longest, 300) << "the long rows are capped at the columns";
  for (const float v : a.data) EXPECT_TRUE(v != 0 && v == std::nearbyint(v));
}

TEST(SkewedCsr, EverySeedGivesTheSameLengthsShuffled) {
  const auto a = skewed_csr(500, 600, 1, Fill::reals);
  const auto b = skewed_csr(500, 600, 2, Fill::reals);
  EXPECT_EQ(a.data.size(), b.data.size());
  EXPECT_NE(a.row_ptr, b.row_ptr);
  EXPECT_EQ(skewed_csr(500, 600, 1, Fill::reals).col_index, a.col_index) << "replayable";
}

// Worked example: rows 1 and 4 empty; y = [6, 0, 20, 5, 0] for x = [1, 2, 3, 4].
CsrMatrix example() {
  return csr_of_dense(5, 4, {3, 0, 1, 0, 0, 0, 0, 0, 0, 2, 4, 1, 1, 0, 0, 1, 0, 0, 0, 0});
}

TEST(SpmvExpected, WorkedExample) {
  const auto a = example();
  EXPECT_EQ(a.row_ptr, (std::vector<std::int32_t>{0, 2, 2, 5, 7, 7}));
  EXPECT_EQ(spmv_expected(a, {1, 2, 3, 4}, Fill::integers).values,
            (std::vector<float>{6, 0, 20, 5, 0}));
}

TEST(ShuffledExample, RowsMoveWithTheirAnswersAndTheOrderFollowsTheSeed) {
  const std::vector<std::vector<float>> rows{
      {3, 0, 1, 0}, {0, 0, 0, 0}, {0, 2, 4, 1}, {1, 0, 0, 1}, {0, 0, 0, 0}};
  const std::vector<float> answers{6, 0, 20, 5, 0};
  bool some_seed_moved_a_row = false;
  for (std::uint64_t seed = 0; seed < 8; ++seed) {
    const auto [a, y] = shuffled_example(rows, answers, seed);
    ASSERT_EQ(a.rows, 5);
    ASSERT_EQ(a.cols, 4);
    EXPECT_EQ(spmv_expected(a, {1, 2, 3, 4}, Fill::integers).values, y) << "seed " << seed;
    some_seed_moved_a_row |= y != answers;
  }
  EXPECT_TRUE(some_seed_moved_a_row) << "the rows stay in the handout's order";
}

TEST(SpmvCase, InputsInTheKernelsOrderAndTheMatrixBack) {
  const auto a = example();
  const auto data = spmv_case(a, {1, 2, 3, 4});
  EXPECT_EQ(data.size.rows, 5);
  EXPECT_EQ(data.size.cols, 4);
  ASSERT_EQ(data.inputs.size(), 4u);
  EXPECT_EQ(data.inputs[3].floats(), (std::vector<float>{1, 2, 3, 4}));
  const auto back = csr_of_spmv_case(data);
  EXPECT_EQ(back.data, a.data);
  EXPECT_EQ(back.col_index, a.col_index);
  EXPECT_EQ(back.row_ptr, a.row_ptr);
}

std::string diagnosis_of(const std::vector<float>& got) {
  const auto a = example();
  const auto d = diagnose_spmv(a, spmv_expected(a, {1, 2, 3, 4}, Fill::integers), got);
  return d ? d->id : "none";
}

TEST(DiagnoseSpmv, NamesEachCsrMistake) {
  const float nan = std::nanf("");
  EXPECT_EQ(diagnosis_of({6, 0, 20, 5, 0}), "none") << "right";
  EXPECT_EQ(diagnosis_of({nan, nan, nan, nan, nan}), "none") << "unwritten: the general rules'";
  EXPECT_EQ(diagnosis_of({6, nan, 20, 5, nan}), "empty_rows");
  EXPECT_EQ(diagnosis_of({0, 20, 5, 0, 0}), "row_ptr_off_by_one") << "next row's sums";
  EXPECT_EQ(diagnosis_of({6, 6, 0, 20, 5}), "row_ptr_off_by_one") << "previous row's sums";
}

TEST(DiagnoseSpmv, LostUpdatesNeedRightSingleRows) {
  // Rows 0 and 2 have one nonzero each and are right; rows 1 and 3 kept one term of several.
  const auto a = csr_of_dense(4, 3, {2, 0, 0, 1, 1, 1, 0, 0, 3, 4, 4, 0});
  const auto expected = spmv_expected(a, {1, 1, 1}, Fill::integers);
  const auto d = diagnose_spmv(a, expected, {2, 1, 3, 4});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->id, "lost_updates");
  EXPECT_NE(d->evidence.find("row 1 (3 nonzeros): expected 3, got 1"), std::string::npos)
      << d->evidence;
}

}  // namespace
}  // namespace harness
