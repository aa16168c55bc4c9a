#include <gtest/gtest.h>

#include "harness/timing.hpp"

namespace harness {
namespace {

TEST(Summarize, MedianAndQuartiles) {
  const auto m = summarize({5, 1, 4, 2, 3});
  EXPECT_DOUBLE_EQ(m.median_ms, 3);
  EXPECT_DOUBLE_EQ(m.min_ms, 1);
  EXPECT_DOUBLE_EQ(m.max_ms, 5);
  EXPECT_DOUBLE_EQ(m.q1_ms, 2);
  EXPECT_DOUBLE_EQ(m.q3_ms, 4);
  EXPECT_DOUBLE_EQ(m.spread(), 2.0 / 3.0);
  EXPECT_EQ(m.samples_ms.size(), 5u);
}

TEST(Summarize, EvenCountInterpolates) {
  const auto m = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(m.median_ms, 2.5);
}

TEST(Summarize, OneOutlierDoesNotMoveTheMedian) {
  const auto m = summarize({1, 1, 1, 1, 1, 1, 1, 1, 1, 100});
  EXPECT_DOUBLE_EQ(m.median_ms, 1);
  EXPECT_DOUBLE_EQ(m.spread(), 0);
}

TEST(Summarize, NoSamplesIsAnError) { EXPECT_THROW(summarize({}), std::invalid_argument); }

}  // namespace
}  // namespace harness

TEST(Ordinal, CountsTimedCallsInWords) {
  EXPECT_EQ(harness::ordinal(1), "1st");
  EXPECT_EQ(harness::ordinal(2), "2nd");
  EXPECT_EQ(harness::ordinal(3), "3rd");
  EXPECT_EQ(harness::ordinal(7), "7th");
  EXPECT_EQ(harness::ordinal(11), "11th");
  EXPECT_EQ(harness::ordinal(12), "12th");
  EXPECT_EQ(harness::ordinal(13), "13th");
  EXPECT_EQ(harness::ordinal(21), "21st");
  EXPECT_EQ(harness::ordinal(112), "112th");
}
