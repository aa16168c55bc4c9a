// The UTF-8 decoder that the intake (names, kernel files), the exports (cleaned text) and the
// reports (labels cut to fit a chart) share.
#include "common/utf8.hpp"

#include <gtest/gtest.h>

namespace common {
namespace {

TEST(Utf8, DecodesOneCodePointAndItsLength) {
  char32_t c = 0;
  EXPECT_EQ(utf8::decode("a", 0, c), 1u);
  EXPECT_EQ(c, U'a');
  EXPECT_EQ(utf8::decode("\u00eb", 0, c), 2u);
  EXPECT_EQ(c, U'\u00eb');
  EXPECT_EQ(utf8::decode("\U0001F680", 0, c), 4u);
  EXPECT_EQ(c, U'\U0001F680');
  EXPECT_EQ(utf8::decode("\xf4\x90\x80\x80", 0, c), 0u);  // above U+10FFFF
}

TEST(Utf8, FindsTheFirstInvalidByte) {
  EXPECT_EQ(utf8::first_invalid("Zo\u00eb \u674e\u96f7 \U0001F680"), std::nullopt);
  EXPECT_EQ(utf8::first_invalid("ab\xff"), 2u);
  EXPECT_EQ(utf8::first_invalid("a\xc0\xaf"), 1u);       // overlong '/'
  EXPECT_EQ(utf8::first_invalid("ab\xed\xa0\x80"), 2u);  // a surrogate
  EXPECT_EQ(utf8::first_invalid("abc\xe2\x82"), 3u);     // cut short
}

TEST(Utf8, ReplacesEachBadByteWithTheReplacementCharacter) {
  EXPECT_EQ(utf8::make_valid("Zo\u00eb"), "Zo\u00eb");
  EXPECT_EQ(utf8::make_valid("a\xff"
                             "b\xc0\xaf"),
            "a\uFFFD"
            "b\uFFFD\uFFFD");
}

TEST(Utf8, CountsCodePointsAndCutsOnlyBetweenThem) {
  const std::string text = "a\u00eb\u674e";  // 1 + 2 + 3 bytes
  EXPECT_EQ(utf8::code_points(text), 3u);
  EXPECT_TRUE(utf8::starts_code_point('a'));
  EXPECT_FALSE(utf8::starts_code_point(text[2]));
  EXPECT_EQ(utf8::boundary_at_most(text, 10), 6u);
  EXPECT_EQ(utf8::boundary_at_most(text, 2), 1u);  // not inside the two bytes of e-diaeresis
  EXPECT_EQ(utf8::boundary_at_most(text, 5), 3u);
  EXPECT_EQ(utf8::bytes_of_first(text, 2), 3u);
  EXPECT_EQ(utf8::bytes_of_first(text, 3), 6u);
  EXPECT_EQ(utf8::bytes_of_first(text, 9), 6u);
  EXPECT_EQ(utf8::bytes_of_first(text, 0), 0u);
}

}  // namespace
}  // namespace common
