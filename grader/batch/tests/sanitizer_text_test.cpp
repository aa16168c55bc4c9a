// The text readers of compute-sanitizer's report (batch/sanitizer_text.hpp): whatever the student
// printed, they read what they can and never throw.
#include "batch/sanitizer_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace batch::sanitizer_text {
namespace {

TEST(SanitizerText, Numbers) {
  EXPECT_EQ(hex_number("0x7f4f52a00204 is out of bounds"), 0x7f4f52a00204ULL);
  EXPECT_EQ(hex_number("0X1f"), 0x1fULL);
  EXPECT_FALSE(hex_number("0x"));
  EXPECT_FALSE(hex_number("1234"));
  EXPECT_FALSE(hex_number("0xzz"));
  EXPECT_EQ(count_number("8,867,934,240 bytes"), 8867934240ULL);
  EXPECT_EQ(count_number("4 bytes"), 4ULL);
  EXPECT_EQ(count_number("12, and"), 12ULL);  // a comma not followed by a digit ends the number
  EXPECT_FALSE(count_number(",12"));
  EXPECT_FALSE(count_number("99999999999999999999999"));  // past 64 bits
  EXPECT_EQ(line_number("21"), 21);
  EXPECT_EQ(line_number("2a"), 0);
  EXPECT_EQ(line_number(""), 0);
  EXPECT_EQ(line_number("1234567890"), 0);  // not a sane line number
}

TEST(SanitizerText, WordsAndPlaces) {
  EXPECT_EQ(trimmed(" \t kernel.cu:21 \r"), "kernel.cu:21");
  EXPECT_EQ(after("Access to 0x10 is", "Access to "), "0x10 is");
  EXPECT_FALSE(after("nothing here", "Access to "));
  EXPECT_TRUE(contains("Invalid __global__ read", "__global__"));
  EXPECT_EQ(file_name_only("/dir/sub/kernel.cu"), "kernel.cu");
  EXPECT_EQ(file_name_only("C:\\dir\\kernel.cu"), "kernel.cu");
  EXPECT_EQ(file_name_only("kernel.cu"), "kernel.cu");
  EXPECT_EQ(capped(std::string(kMaxText, 'x')), std::string(kMaxText, 'x'));
  EXPECT_EQ(capped(std::string(kMaxText + 1, 'x')), std::string(kMaxText, 'x') + "...");
  EXPECT_EQ(grouped(0), "0");
  EXPECT_EQ(grouped(999), "999");
  EXPECT_EQ(grouped(1234567), "1,234,567");
}

}  // namespace
}  // namespace batch::sanitizer_text
