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

CheckRecord emulated(const std::string& check, Verdict verdict, double fraction = 0) {
  auto r = record(check, verdict, fraction);
  r.backend = "emulation: CPU emulation (2 threads, random schedule)";
  return r;
}

// Under the CPU emulation speed is not measured: a right submission earns all it can there, and
// its score line says so; the points stay what the spec and the verdicts give.
TEST(Grade, SaysWhenARunWithoutAGpuEarnedAllItCan) {
  const auto s = spec();
  const auto grade = grade_lab(
      s, {emulated("A.Correct", Verdict::pass), emulated("A.Speed", Verdict::not_measured),
          emulated("A.Shape", Verdict::pass)});
  EXPECT_TRUE(grade.emulated);
  EXPECT_DOUBLE_EQ(grade.points, 40);
  EXPECT_DOUBLE_EQ(grade.max_points, 60);
  const auto limit = without_gpu(grade);
  ASSERT_TRUE(limit);
  EXPECT_DOUBLE_EQ(limit->speed_points, 20);
  EXPECT_DOUBLE_EQ(limit->most, 40);
  EXPECT_TRUE(limit->earned);
  EXPECT_EQ(format_score_line(grade),
            "40 / 60 points: the most a run without a GPU can earn (speed, 20 points, is "
            "measured on a GPU only)");
}

TEST(Grade, AnEmulatedRunThatMissedPointsIsNotTheMost) {
  const auto s = spec();
  const auto grade = grade_lab(
      s, {emulated("A.Correct", Verdict::fail, 0.5), emulated("A.Speed", Verdict::not_measured),
          emulated("A.Shape", Verdict::pass)});
  EXPECT_DOUBLE_EQ(grade.points, 25);
  const auto limit = without_gpu(grade);
  ASSERT_TRUE(limit);
  EXPECT_FALSE(limit->earned);
  EXPECT_EQ(format_score_line(grade),
            "25 / 60 points; without a GPU at most 40 can be earned (speed, 20 points, is "
            "measured on a GPU only)");
  // A check that did not run, or records that could not be used, are not the most either.
  EXPECT_FALSE(without_gpu(grade_lab(s, {emulated("A.Correct", Verdict::pass)}))->earned);
  EXPECT_FALSE(
      without_gpu(
          grade_lab(s, {emulated("A.Correct", Verdict::pass), emulated("A.Shape", Verdict::pass)},
                    {"an unreadable record"}))
          ->earned);
}

TEST(Grade, OnAGpuTheScoreLineIsTheScore) {
  const auto s = spec();
  const auto grade =
      grade_lab(s, {record("A.Correct", Verdict::pass), record("A.Speed", Verdict::fail, 0),
                    record("A.Shape", Verdict::pass)});
  EXPECT_FALSE(grade.emulated);
  EXPECT_FALSE(without_gpu(grade));
  EXPECT_EQ(format_score_line(grade), "40 / 60 points");
  // A lab without speed points: the score says all there is, emulated or not.
  const auto no_speed = parse_spec(nlohmann::json::parse(R"({"lab": "lab1", "title": "One block",
    "checks": [{"id": "A.Correct", "kind": "correctness", "title": "a", "points": 30}]})"),
                                   "spec.json");
  const auto cpu = grade_lab(no_speed, {emulated("A.Correct", Verdict::pass)});
  EXPECT_TRUE(cpu.emulated);
  EXPECT_FALSE(without_gpu(cpu));
  EXPECT_EQ(format_score_line(cpu), "30 / 30 points");
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
