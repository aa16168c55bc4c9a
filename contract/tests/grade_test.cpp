#include "contract/grade.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace contract {
namespace {

LabSpec spec() {
  return parse_spec(nlohmann::json::parse(R"({
    "lab": "lab1", "title": "Copy",
    "checks": [
      {"id": "A.Correct", "kind": "correctness", "title": "a", "points": 30},
      {"id": "A.Speed", "kind": "speed", "title": "b", "points": 20},
      {"id": "A.Shape", "kind": "structure", "title": "c", "points": 10}
    ]})"),
                    "spec.json");
}

CheckRecord record(const std::string& check, Verdict verdict, double fraction = 0) {
  CheckRecord r;
  r.lab = "lab1";
  r.check = check;
  r.verdict = verdict;
  r.fraction = fraction;
  return r;
}

TEST(Grade, PointsComeFromTheSpecAndTheVerdict) {
  const auto s = spec();
  const auto grade = grade_lab(
      s, {record("A.Correct", Verdict::fail, 2.0 / 3.0), record("A.Speed", Verdict::pass)});
  ASSERT_EQ(grade.checks.size(), 3u);
  EXPECT_DOUBLE_EQ(grade.checks[0].points, 20);
  EXPECT_DOUBLE_EQ(grade.checks[1].points, 20);
  EXPECT_EQ(grade.checks[2].verdict, Verdict::not_run);
  EXPECT_DOUBLE_EQ(grade.checks[2].points, 0);
  EXPECT_DOUBLE_EQ(grade.points, 40);
  EXPECT_DOUBLE_EQ(grade.max_points, 60);
}

TEST(Grade, OnlyPassAndPartialFailEarnPoints) {
  const auto s = spec();
  for (auto verdict : {Verdict::error, Verdict::skipped, Verdict::inconclusive,
                       Verdict::not_measured, Verdict::not_run}) {
    EXPECT_DOUBLE_EQ(points_for(s.checks[0], verdict, 1.0), 0) << to_string(verdict);
  }
  EXPECT_DOUBLE_EQ(points_for(s.checks[0], Verdict::fail, 1.0 / 3.0), 10);
}

TEST(Grade, ARecordCannotAwardItselfPoints) {
  auto boastful = record("A.Correct", Verdict::fail, 0.0);
  boastful.points = 1000;
  boastful.max_points = 1000;
  const auto grade = grade_lab(spec(), {boastful});
  EXPECT_DOUBLE_EQ(grade.points, 0);
  EXPECT_DOUBLE_EQ(grade.max_points, 60);
}

TEST(Grade, RecordsOfOtherLabsOrUnknownChecksAreProblemsNotPoints) {
  const auto s = spec();
  auto foreign = record("A.Speed", Verdict::pass);
  foreign.lab = "lab7";
  const auto grade = grade_lab(s, {foreign, record("A.Bonus", Verdict::pass)});
  EXPECT_DOUBLE_EQ(grade.points, 0);
  EXPECT_EQ(grade.problems.size(), 2u);
}

}  // namespace
}  // namespace contract

namespace contract {
namespace {

TEST(FormatPoints, AtMostTwoDecimalsAndNoTrailingZeros) {
  EXPECT_EQ(format_points(3), "3");
  EXPECT_EQ(format_points(2.5), "2.5");
  EXPECT_EQ(format_points(10.0 / 3.0), "3.33");
  EXPECT_EQ(format_points(-0.0), "0");
  EXPECT_EQ(format_points(std::nan("")), "n/a");
}

}  // namespace
}  // namespace contract
