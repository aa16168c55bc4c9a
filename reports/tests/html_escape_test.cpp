#include "reports/html.hpp"

#include <gtest/gtest.h>

namespace {

using reports::html_escape;

TEST(HtmlEscape, LeavesPlainTextAlone) {
  EXPECT_EQ(html_escape(""), "");
  EXPECT_EQ(html_escape("256x1024 elements, 3.5 ms"), "256x1024 elements, 3.5 ms");
}

TEST(HtmlEscape, EscapesEachSpecialCharacter) {
  EXPECT_EQ(html_escape("&"), "&amp;");
  EXPECT_EQ(html_escape("<"), "&lt;");
  EXPECT_EQ(html_escape(">"), "&gt;");
  EXPECT_EQ(html_escape("\""), "&quot;");
  EXPECT_EQ(html_escape("'"), "&#39;");
}

TEST(HtmlEscape, EscapesAmpersandsFirstSoEntitiesAreNotDoubleDecoded) {
  EXPECT_EQ(html_escape("&lt;"), "&amp;lt;");
}

TEST(HtmlEscape, DefusesMarkup) {
  EXPECT_EQ(html_escape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(html_escape(R"(" onmouseover='x')"), "&quot; onmouseover=&#39;x&#39;");
}

TEST(HtmlEscape, KeepsUtf8AndControlBytes) {
  EXPECT_EQ(html_escape("Gr\xc3\xbc\xc3\x9f"
                        "e \xe2\x9c\x93"),
            "Gr\xc3\xbc\xc3\x9f"
            "e \xe2\x9c\x93");
  EXPECT_EQ(html_escape(std::string_view("a\0b", 3)), std::string("a\0b", 3));
}

}  // namespace
