#include "common/numbers.hpp"

#include <limits>

#include <gtest/gtest.h>

TEST(Numbers, GroupsDigitsInThrees) {
  EXPECT_EQ(common::grouped(0), "0");
  EXPECT_EQ(common::grouped(999), "999");
  EXPECT_EQ(common::grouped(1000), "1,000");
  EXPECT_EQ(common::grouped(1234567), "1,234,567");
  EXPECT_EQ(common::grouped(-60927), "-60,927");
  EXPECT_EQ(common::grouped(std::numeric_limits<long long>::min()), "-9,223,372,036,854,775,808");
}
