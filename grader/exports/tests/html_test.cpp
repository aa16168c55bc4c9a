#include "exports/gradebook_html.hpp"

#include <algorithm>
#include <cctype>
#include <regex>

#include <gtest/gtest.h>

#include "class_fixture.hpp"
#include "exports/text.hpp"

namespace exports {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + 1))
    ++n;
  return n;
}

class GradebookHtml : public ::testing::Test {
 protected:
  contract::LabSpec spec = testing::make_spec();
  std::vector<StudentOutcome> outcomes = testing::make_class(spec);
  std::string page = gradebook_html(spec, outcomes, "2026-11-22T10:00:00Z <b>");
};

TEST_F(GradebookHtml, SelfContainedAndScriptFree) {
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>"));
  const std::string l = lower(page);
  EXPECT_EQ(l.find("<script"), std::string::npos);
  EXPECT_EQ(l.find("<img"), std::string::npos);
  EXPECT_EQ(l.find("javascript:"), std::string::npos);
  EXPECT_EQ(l.find(" onerror="), std::string::npos);
  EXPECT_EQ(l.find("http://"), std::string::npos);
  EXPECT_EQ(l.find("https://"), std::string::npos);
  EXPECT_EQ(l.find("url("), std::string::npos);
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(text::clean(page), page) << "valid UTF-8, no control bytes";
}

TEST_F(GradebookHtml, EverythingIsEscaped) {
  EXPECT_NE(page.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("=cmd|&#39; /C calc&#39;!A0"), std::string::npos);
  EXPECT_NE(page.find("Zo\u00eb &quot;Q&quot;, Jr. second line"), std::string::npos);
  EXPECT_NE(page.find("badbytes\uFFFD end"), std::string::npos);
  EXPECT_NE(page.find("\u674e\u96f7 \U0001F680"), std::string::npos);
  EXPECT_NE(page.find("Tiled &lt;b&gt;matmul&lt;/b&gt; &amp; friends"), std::string::npos);
  EXPECT_NE(page.find("&lt;/pre&gt;&lt;script&gt;x()&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("2026-11-22T10:00:00Z &lt;b&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<b>"), std::string::npos);
}

TEST_F(GradebookHtml, LinksAreRelativeAndPercentEncoded) {
  const std::regex href(R"re(href="([^"]*)")re");
  std::vector<std::string> links;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), href); it != std::sregex_iterator();
       ++it) {
    links.push_back((*it)[1]);
  }
  for (const auto& link : links) {
    if (link == "#problems") continue;
    EXPECT_TRUE(link.starts_with("reports/")) << link;
    EXPECT_EQ(link.find_first_of("<>\"' :&#?"), std::string::npos) << link;
  }
  EXPECT_NE(std::find(links.begin(), links.end(), "reports/alice/report.html"), links.end());
  EXPECT_NE(std::find(links.begin(), links.end(),
                      "reports/%3Cscript%3Ealert%28%22x%22%29%3C/script%3E/report.html"),
            links.end());
  EXPECT_NE(page.find("unsafe path"), std::string::npos);  // the javascript: report path
}

TEST_F(GradebookHtml, HistogramCountsAddUpToTheClass) {
  const std::regex bar(R"re(data-count="(\d+)")re");
  std::size_t total = 0;
  std::size_t bars = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), bar); it != std::sregex_iterator();
       ++it, ++bars) {
    total += std::stoul((*it)[1]);
  }
  EXPECT_EQ(bars, 10u);
  EXPECT_EQ(total, outcomes.size());
}

TEST_F(GradebookHtml, SummaryChecksStudentsAndProblems) {
  EXPECT_NE(page.find(R"(<p class="card-value">8</p>)"), std::string::npos);
  EXPECT_NE(page.find("6.25"), std::string::npos);  // mean 50 / 8
  EXPECT_NE(page.find("2.5"), std::string::npos);   // median
  for (const auto& check : spec.checks) EXPECT_NE(page.find(check.id), std::string::npos);
  EXPECT_NE(page.find("38%"), std::string::npos);  // 3 of 8 passed correctness
  // Every student has one row; every ungraded status and the record problem are listed.
  EXPECT_EQ(count(page, "<th scope=\"row\" class=\"student-name\">"), outcomes.size());
  for (const std::string status : {"compile error", "timed out", "crashed"}) {
    EXPECT_GE(count(page, status), 2u) << status;  // the table and the problems list
  }
  EXPECT_NE(page.find("a result for &#39;Bogus.Check&#39;"), std::string::npos);
  EXPECT_EQ(count(page, "<article class=\"problem\">"), 4u);
  EXPECT_NE(page.find("killed after 120 s tail"), std::string::npos);
}

// ---- a class graded under the CPU emulation ----------------------------------------------

// The table row of one check of the Checks table.
std::string check_row(const std::string& page, const std::string& check_id) {
  const auto id = page.find("<span class=\"check-id\">" + check_id + "</span>");
  if (id == std::string::npos) return {};
  const auto start = page.rfind("<tr", id);
  return page.substr(start, page.find("</tr>", id) - start);
}

TEST(GradebookHtmlEmulated, SaysAtTheTopThatTheClassWasGradedOnTheCpu) {
  const auto spec = testing::make_spec();
  const auto page = gradebook_html(spec, testing::make_emulated_class(spec), "now");
  const auto note = page.find("Graded on the CPU (the CPU emulation), not on a GPU.");
  ASSERT_NE(note, std::string::npos);
  EXPECT_LT(note, page.find("<div class=\"cards\">")) << "before every figure";
  EXPECT_NE(page.find("speed was not measured: the speed checks (5 of the 20 points) read "
                      "&#8220;not measured&#8221; and earned nothing, so the most a submission "
                      "could earn here is 15"),
            std::string::npos);
  EXPECT_NE(page.find("2 graded &#183; 1 with the most a run without a GPU can earn"),
            std::string::npos);
  EXPECT_EQ(page.find(testing::kScriptName), std::string::npos) << "names stay escaped";
}

TEST(GradebookHtmlEmulated, TheSpeedCheckReadsNotMeasuredNotZero) {
  const auto spec = testing::make_spec();
  const auto page = gradebook_html(spec, testing::make_emulated_class(spec), "now");
  const auto speed = check_row(page, "Tiled.Speed");
  ASSERT_FALSE(speed.empty());
  EXPECT_NE(speed.find("not measured"), std::string::npos) << speed;
  EXPECT_EQ(speed.find("<span>0%</span>"), std::string::npos) << "no pass rate: " << speed;
  EXPECT_EQ(speed.find("<svg"), std::string::npos) << "no empty share bar: " << speed;
  EXPECT_NE(speed.find("2 of 3 students (speed is measured on a GPU only) &#183; 1 not run"),
            std::string::npos)
      << speed;
  EXPECT_EQ(speed.find("passed"), std::string::npos) << speed;
  EXPECT_EQ(speed.find(">0<"), std::string::npos) << "no mean of 0 points: " << speed;
  // The checks that ran keep their pass rates; each student's row counts what was not measured.
  EXPECT_NE(check_row(page, "Tiled.SharedMemory").find("67%"), std::string::npos);
  EXPECT_EQ(count(page, "&#183; 1 not measured</span>"), 2u);
}

// ---- a speed beyond the GPU's ceiling ----------------------------------------------------

// The student's row is flagged beside the status, the check's row counts it; no other student
// and no honest class reads "implausible".
TEST(GradebookHtmlImplausible, FlagsTheStudentAndCountsTheCheck) {
  const auto spec = testing::make_spec();
  const auto page = gradebook_html(spec, testing::make_implausible_class(spec), "now");
  const auto mallory = page.find(R"(<th scope="row" class="student-name">mallory</th>)");
  ASSERT_NE(mallory, std::string::npos);
  const auto row = page.substr(mallory, page.find("</tr>", mallory) - mallory);
  EXPECT_NE(row.find(R"(<span class="status status-implausible">implausible speed</span>)"),
            std::string::npos)
      << row;
  const auto alice = page.find(R"(<th scope="row" class="student-name">alice</th>)");
  ASSERT_NE(alice, std::string::npos);
  EXPECT_EQ(page.substr(alice, page.find("</tr>", alice) - alice).find("status-implausible"),
            std::string::npos);
  EXPECT_NE(check_row(page, "Tiled.Speed")
                .find(R"(1 passed &#183; <span class="implausible">1 implausible speed</span>)"),
            std::string::npos)
      << check_row(page, "Tiled.Speed");
  const auto honest = testing::make_spec();
  EXPECT_EQ(gradebook_html(honest, testing::make_class(honest), "now").find("status-implausible\""),
            std::string::npos);
}

TEST_F(GradebookHtml, OnAGpuNothingSaysEmulation) {
  EXPECT_EQ(page.find("Graded on the CPU"), std::string::npos);
  EXPECT_EQ(page.find("not measured"), std::string::npos);
  EXPECT_NE(page.find("with full marks"), std::string::npos);
}

TEST(GradebookHtmlEmpty, NoStudents) {
  const auto spec = testing::make_spec();
  const auto page = gradebook_html(spec, {}, "now");
  EXPECT_NE(page.find("every submission was graded"), std::string::npos);
  EXPECT_NE(page.find("</html>"), std::string::npos);
}

TEST(GradebookHtmlLong, MessagesAreCut) {
  const auto spec = testing::make_spec();
  const auto page = gradebook_html(
      spec, {testing::ungraded("x", "compile error", std::string(1 << 20, 'e'))}, "now");
  EXPECT_LT(page.size(), 64u * 1024);
  EXPECT_NE(page.find("more bytes not shown"), std::string::npos);
}

}  // namespace
}  // namespace exports
