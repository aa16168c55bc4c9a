#include "exports/text.hpp"

#include <gtest/gtest.h>

namespace exports::text {
namespace {

TEST(Text, CleanKeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(clean("Zo\u00eb \u674e\u96f7 \U0001F680"), "Zo\u00eb \u674e\u96f7 \U0001F680");
  EXPECT_EQ(clean("a\xff"
                  "b"),
            "a\uFFFD"
            "b");
  EXPECT_EQ(clean("\xc0\xaf"), "\uFFFD\uFFFD");            // overlong '/'
  EXPECT_EQ(clean("\xed\xa0\x80"), "\uFFFD\uFFFD\uFFFD");  // a surrogate
  EXPECT_EQ(clean("\xe2\x82"), "\uFFFD\uFFFD");            // cut short
}

TEST(Text, CleanDropsControlCharactersAndTerminalColours) {
  EXPECT_EQ(clean(std::string("a\0b\x01\x7f"
                              "c\u0085d",
                              10)),
            "abcd");
  EXPECT_EQ(clean("\x1b[1;31merror\x1b[0m: x"), "error: x");
  EXPECT_EQ(clean("\x1b]8;;http://x\x07link\x1b]8;;\x1b\\"), "link");
  EXPECT_EQ(clean("one\r\ntwo\rthree\tfour"), "one\ntwo\nthree\tfour");
  EXPECT_EQ(clean("one\r\ntwo\tthree", false), "one two three");
  EXPECT_EQ(clean("\uFFFE\uFFFF"), "");
}

TEST(Text, TruncateCutsAtACodePoint) {
  EXPECT_EQ(truncate("short", 10), "short");
  const std::string cut = truncate("\u00e9\u00e9\u00e9", 3);  // 6 bytes; byte 3 is mid-character
  EXPECT_TRUE(cut.starts_with("\u00e9\u2026")) << cut;
  EXPECT_NE(cut.find("4 more bytes"), std::string::npos) << cut;
  EXPECT_EQ(clean(cut), cut);
}

TEST(Text, CsvFieldQuotesAndGuardsFormulas) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\r\nlines\"");
  EXPECT_EQ(csv_field("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
  EXPECT_EQ(csv_field("+1"), "'+1");
  EXPECT_EQ(csv_field("-2+3"), "'-2+3");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("\t=1"), "'\t=1");
  EXPECT_EQ(csv_field("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
  EXPECT_EQ(csv_field("\x1b[31m=1"), "'=1");  // the guard sees the cleaned text
}

TEST(Text, XmlEscape) {
  EXPECT_EQ(xml_escape("<a href='x'>&\"</a>"), "&lt;a href=&apos;x&apos;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(xml_escape("a\nb\tc", true), "a&#10;b&#9;c");
  EXPECT_EQ(xml_escape("a\nb", false), "a\nb");
  EXPECT_EQ(xml_escape("]]>\x01\x1b[0m"), "]]&gt;");
}

TEST(Text, SafeHrefRefusesSchemesAndOtherHosts) {
  EXPECT_FALSE(safe_href(""));
  EXPECT_FALSE(safe_href("javascript:alert(1)"));
  EXPECT_FALSE(safe_href("JavaScript:alert(1)"));
  EXPECT_FALSE(safe_href(" javascript:alert(1)"));
  EXPECT_FALSE(safe_href("data:text/html,<script>"));
  EXPECT_FALSE(safe_href("https://example.com/x"));
  EXPECT_FALSE(safe_href("//example.com/x"));
  EXPECT_FALSE(safe_href("\\\\host\\share"));
  EXPECT_FALSE(safe_href("java\nscript:alert(1)"));
  EXPECT_FALSE(safe_href("\tjavascript:alert(1)"));
}

TEST(Text, SafeHrefPercentEncodes) {
  EXPECT_EQ(safe_href("reports/alice/report.html"), "reports/alice/report.html");
  EXPECT_EQ(safe_href("reports/a b/\"x\"<y>&'#?.html"),
            "reports/a%20b/%22x%22%3Cy%3E%26%27%23%3F.html");
  EXPECT_EQ(safe_href("reports/Zo\u00eb/r.html"), "reports/Zo%C3%AB/r.html");
  EXPECT_EQ(safe_href("reports/x:y/r.html"), "reports/x%3Ay/r.html");  // a colon after a slash
  EXPECT_EQ(safe_href("../up.html"), "../up.html");
}

}  // namespace
}  // namespace exports::text
