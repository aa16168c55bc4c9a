#include "harness/random.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <gtest/gtest.h>

namespace harness {
namespace {

TEST(Random, SameSeedSameMatrix) {
  EXPECT_EQ(random_real_matrix(16, 8, 42), random_real_matrix(16, 8, 42));
  EXPECT_NE(random_real_matrix(16, 8, 42), random_real_matrix(16, 8, 43));
}

TEST(Random, RealValuesAreInRangeAndNeverZero) {
  const auto m = random_real_matrix(64, 64, 7);
  for (float v : m) {
    EXPECT_NE(v, 0.0f);
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
  }
}

TEST(Random, IntegerValuesAreWholeInRangeAndNeverZero) {
  const auto m = random_integer_matrix(64, 64, 7, -2, 2);
  for (float v : m) {
    EXPECT_EQ(v, static_cast<float>(static_cast<int>(v)));
    EXPECT_NE(v, 0.0f);
    EXPECT_GE(v, -2.0f);
    EXPECT_LE(v, 2.0f);
  }
  EXPECT_THROW(random_integer_matrix(2, 2, 1, 3, 2), std::invalid_argument);
}

TEST(Random, CaseSeedsDependOnCheckAndLabel) {
  EXPECT_EQ(derive_seed(1, "A.B", "32x32"), derive_seed(1, "A.B", "32x32"));
  EXPECT_NE(derive_seed(1, "A.B", "32x32"), derive_seed(1, "A.B", "64x32"));
  EXPECT_NE(derive_seed(1, "A.B", "32x32"), derive_seed(1, "A.C", "32x32"));
  EXPECT_NE(derive_seed(1, "A.B", "32x32"), derive_seed(2, "A.B", "32x32"));
}

}  // namespace
}  // namespace harness

TEST(Random, SparseUnitsAreMostlyZerosAndSumExactly) {
  const auto values = harness::random_sparse_unit_matrix(1024, 1024, 42);
  long long positives = 0, negatives = 0;
  for (const float v : values) {
    ASSERT_TRUE(v == 0.0f || v == 1.0f || v == -1.0f) << v;
    positives += v > 0;
    negatives += v < 0;
  }
  // One element in 64 on average (16384 of 2^20), split between the signs.
  EXPECT_NEAR(positives + negatives, 16384, 800);
  EXPECT_NEAR(positives, negatives, 800);
  EXPECT_NE(values, harness::random_sparse_unit_matrix(1024, 1024, 43));
  EXPECT_EQ(values, harness::random_sparse_unit_matrix(1024, 1024, 42));
}
