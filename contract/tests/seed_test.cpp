#include "contract/seed.hpp"

#include <cstdlib>
#include <stdexcept>

#include <gtest/gtest.h>

namespace contract {
namespace {

TEST(Seed, GivenSeedsAreUsedAndValidated) {
  EXPECT_EQ(choose_seed(std::string_view("12345")), 12345u);
  EXPECT_THROW(choose_seed(std::string_view("12x")), std::invalid_argument);
  EXPECT_THROW(choose_seed(std::string_view("")), std::invalid_argument);
  setenv("LAB_SEED", "777", 1);
  EXPECT_EQ(choose_seed(std::nullopt), 777u);
  EXPECT_EQ(choose_seed(std::string_view("5")), 5u);  // --seed wins over LAB_SEED
  unsetenv("LAB_SEED");
  EXPECT_LT(choose_seed(std::nullopt), 1000000000u);
}

}  // namespace
}  // namespace contract
