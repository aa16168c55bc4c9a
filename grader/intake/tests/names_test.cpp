// Display names, slugs and the wording of problems.
#include <gtest/gtest.h>

#include <set>

#include "slug.hpp"
#include "wording.hpp"

namespace intake {
namespace {

bool slug_chars_only(const std::string& slug) {
  for (const char c : slug) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

TEST(Slug, KeepsLettersAndDigitsAndJoinsWordsWithDashes) {
  EXPECT_EQ(slugify("alice"), "alice");
  EXPECT_EQ(slugify("Alice Smith"), "alice-smith");
  EXPECT_EQ(slugify("  Bob   Jones 2 "), "bob-jones-2");
  EXPECT_EQ(slugify("smith_john.v2"), "smith-john-v2");
}

TEST(Slug, TransliteratesAccentsAndDropsApostrophes) {
  EXPECT_EQ(slugify("Zo\u00eb \u00d8deg\u00e5rd"), "zoe-odegard");
  EXPECT_EQ(slugify("Stra\u00dfe \u0141ukasz \u0152uvre"), "strasse-lukasz-oeuvre");
  EXPECT_EQ(slugify("Nguy\u1ec5n V\u0103n \u01a0n"), "nguyen-van-on");
  EXPECT_EQ(slugify("\u041d\u0430\u0442\u0430\u0448\u0430 \u0429\u0443\u043a\u0438\u043d"),
            "natasha-shchukin");
  EXPECT_EQ(slugify("O'Brien"), "obrien");
  EXPECT_EQ(slugify("O\u2019Brien"), "obrien");
}

TEST(Slug, QuotesAndMarkupBecomeSeparators) {
  EXPECT_EQ(slugify("<script>alert(\"x\")</script>"), "script-alert-x-script");
  EXPECT_EQ(slugify("Robert'); DROP TABLE students;--"), "robert-drop-table-students");
  EXPECT_EQ(slugify("../../etc/passwd"), "etc-passwd");
  EXPECT_EQ(slugify("-rf"), "rf");
}

TEST(Slug, IsNeverEmptyAndStillTellsNamesApart) {
  const std::string han = slugify("\u674e\u96f7");
  const std::string other_han = slugify("\u738b\u82b3");
  EXPECT_TRUE(han.starts_with("student-")) << han;
  EXPECT_NE(han, other_han);
  EXPECT_EQ(han, slugify("\u674e\u96f7"));  // the same name, the same slug, run after run
  EXPECT_TRUE(slug_chars_only(han)) << han;
  EXPECT_TRUE(slugify("\"'<>&").starts_with("student-"));
  EXPECT_TRUE(slugify("").starts_with("student-"));
  const std::string invalid = slugify("\xff\xfe");
  EXPECT_TRUE(invalid.starts_with("student-")) << invalid;
}

TEST(Slug, IsShortAndEndsOnALetterOrDigit) {
  const std::string slug = slugify(std::string(47, 'a') + " bcd");
  EXPECT_EQ(slug, std::string(47, 'a'));  // cut right after the dash, which is then dropped
  EXPECT_LE(slugify(std::string(500, 'x')).size(), 48u);
}

TEST(Slug, CollidingSlugsGetSuffixesThatNoOtherStudentHas) {
  // Sorted as collect() sorts them: bytewise.
  const std::vector<std::string> students = {"Alice", "alice", "alice 2", "al\u00efce",
                                             "\u674e\u96f7"};
  const std::vector<std::string> slugs = unique_slugs(students);
  ASSERT_EQ(slugs.size(), students.size());
  EXPECT_EQ(slugs[0], "alice");
  EXPECT_EQ(slugs[1], "alice-3");  // alice-2 is the third student's own slug
  EXPECT_EQ(slugs[2], "alice-2");
  EXPECT_EQ(slugs[3], "alice-4");
  EXPECT_EQ(std::set<std::string>(slugs.begin(), slugs.end()).size(), slugs.size());
  for (const std::string& slug : slugs) EXPECT_TRUE(slug_chars_only(slug)) << slug;
}

TEST(Wording, SizesReadAsPeopleSayThem) {
  EXPECT_EQ(wording::bytes(64ull << 20), "64 MiB");
  EXPECT_EQ(wording::bytes(512 * 1024), "512 KiB");
  EXPECT_EQ(wording::bytes(512 * 1024 + 1), "513 KiB");
  EXPECT_EQ(wording::bytes(100), "100 bytes");
  EXPECT_EQ(wording::bytes(1), "1 byte");
}

TEST(Wording, QuotedNamesStayOnOneLine) {
  EXPECT_EQ(wording::quoted("../../x"), "'../../x'");
  EXPECT_EQ(wording::quoted("a\nb\x1b[31m\xff"), "'a?b?[31m\uFFFD'");
  const std::string long_name = wording::quoted(std::string(300, 'x'));
  EXPECT_LT(long_name.size(), 110u);
  EXPECT_TRUE(long_name.ends_with("\u2026'")) << long_name;
}

}  // namespace
}  // namespace intake
