// Bonus checks in the exports: extra credit on top of the base total, "not attempted" is neither
// a failure in Gradescope nor in JUnit.
#include <gtest/gtest.h>

#include "exports/gradescope.hpp"
#include "exports/junit.hpp"
#include "exports/outcome.hpp"

namespace exports {
namespace {

contract::LabSpec bonus_spec() {
  return contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab1", "title": "Matrix copy",
    "checks": [
      {"id": "Copy.Correctness", "kind": "correctness", "title": "copies", "points": 100},
      {"id": "CopyFast.Speed", "kind": "speed", "title": "fast copy", "points": 10, "bonus": true}
    ]})"),
                              "bonus spec");
}

StudentOutcome graded(const contract::LabSpec& spec, contract::Verdict bonus) {
  contract::CheckRecord base;
  base.check = "Copy.Correctness";
  base.verdict = contract::Verdict::pass;
  contract::CheckRecord extra;
  extra.check = "CopyFast.Speed";
  extra.verdict = bonus;
  StudentOutcome o;
  o.student = "s";
  o.status = "graded";
  o.grade = contract::grade_lab(spec, {base, extra});
  return o;
}

TEST(BonusExports, GradescopeScoreExceedsTheBaseTotal) {
  const auto spec = bonus_spec();
  const auto results = gradescope_results(spec, graded(spec, contract::Verdict::pass));
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 110);
  EXPECT_DOUBLE_EQ(results["extra_data"]["max_score"].get<double>(), 100);
  const auto& bonus = results["tests"][1];
  EXPECT_EQ(bonus["name"], "Bonus (extra credit): fast copy (CopyFast.Speed)");
  EXPECT_EQ(bonus["tags"], nlohmann::json::array({"speed", "bonus"}));
  EXPECT_NE(results["output"].get<std::string>().find("(+10 of 10 bonus)"), std::string::npos);
}

TEST(BonusExports, NotAttemptedIsNoFailure) {
  const auto spec = bonus_spec();
  const auto outcome = graded(spec, contract::Verdict::not_attempted);
  const auto results = gradescope_results(spec, outcome);
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 100);
  EXPECT_EQ(results["tests"][1]["status"], "passed");
  EXPECT_EQ(results["tests"][1]["extra_data"]["verdict"], "not attempted");
  const auto xml = junit_xml(spec, {outcome});
  EXPECT_NE(xml.find("failures=\"0\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"not attempted"), std::string::npos) << xml;
}

}  // namespace
}  // namespace exports
