// One primary diagnosis per failing check, shown first; the other mistakes once each, as "Also",
// with their evidence; the cases' lines do not repeat them (issue 30).
#include "diagnosis_view.hpp"

#include <gtest/gtest.h>

#include "harness/mistakes.hpp"

namespace reports::detail {
namespace {

using contract::CaseResult;
using contract::Verdict;

CaseResult failed_case(const std::string& name, const std::string& id,
                       const std::string& evidence) {
  CaseResult c;
  c.name = name;
  c.verdict = Verdict::fail;
  c.diagnosis = harness::make_diagnosis(id, evidence);
  return c;
}

std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

TEST(DiagnosisView, OnePrimaryFirstAndEveryOtherMistakeOnceWithItsEvidence) {
  auto primary = harness::make_diagnosis("wrong_row_stride", "case 7x13: A read with rows of m");
  primary.also = {"swapped_index"};
  const std::vector<CaseResult> cases{
      failed_case("7x13", "wrong_row_stride", "A read with rows of m"),
      failed_case("70x64", "reads_outside_inputs", "1200 elements <changed>"),
      failed_case("1000x16", "reads_outside_inputs", "again"),
      failed_case("3x16", "wrong_row_stride", "A read with rows of m"),
  };
  const auto box = diagnosis_box(primary, cases, "README.md");
  const auto first = box.find("Likely mistake:");
  const auto also = box.find("Also:");
  ASSERT_NE(first, std::string::npos) << box;
  ASSERT_NE(also, std::string::npos) << box;
  EXPECT_LT(first, also);
  EXPECT_EQ(count_of(box, "Likely mistake:"), 1u);
  EXPECT_EQ(count_of(box, R"(<li data-diagnosis="reads_outside_inputs">)"), 1u) << box;
  EXPECT_NE(box.find("case 70x64: 1200 elements &lt;changed&gt;"), std::string::npos) << box;
  EXPECT_NE(box.find(R"(<li data-diagnosis="swapped_index">)"), std::string::npos) << box;
  EXPECT_EQ(box.find(R"(<li data-diagnosis="wrong_row_stride">)"), std::string::npos) << box;
  EXPECT_EQ(box.find("Fits as well"), std::string::npos) << box;
  // The box is one element: the "Also" list sits inside it.
  EXPECT_EQ(box.rfind("</div>\n"), box.size() - 7) << box;
  // Under a primary the cases' own lines are not repeated; without one they are shown.
  EXPECT_EQ(diagnosis_line(*cases[0].diagnosis, primary), "");
  EXPECT_EQ(diagnosis_line(*cases[1].diagnosis, primary), "");
  EXPECT_NE(diagnosis_line(*cases[1].diagnosis, std::nullopt).find("Likely:"), std::string::npos);
}

TEST(DiagnosisView, NoOtherMistakeNoAlso) {
  const auto primary = harness::make_diagnosis("tile_transposed", "M's tile <transposed>");
  const std::vector<CaseResult> cases{failed_case("32", "tile_transposed", "x")};
  const auto box = diagnosis_box(primary, cases, "README.md");
  EXPECT_EQ(box.find("Also:"), std::string::npos) << box;
  EXPECT_NE(box.find("M&#39;s tile &lt;transposed&gt;"), std::string::npos) << box;
}

}  // namespace
}  // namespace reports::detail
