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

TEST(XmlEscape, UsesTheXmlEntityForApostrophesAndKeepsLineBreaksInAttributes) {
  using reports::escape;
  using reports::Markup;
  EXPECT_EQ(escape("<a href='x'>&\"</a>", Markup::xml_text),
            "&lt;a href=&apos;x&apos;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(escape("a\nb\tc", Markup::xml_attribute), "a&#10;b&#9;c");
  EXPECT_EQ(escape("a\nb\tc", Markup::xml_text), "a\nb\tc");
  EXPECT_EQ(escape("a\nb\tc", Markup::html), "a\nb\tc");
}

}  // namespace
