// A student's outcome written by a shard and read back by the merge must grade the same.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "batch/outcome_file.hpp"
#include "contract/grade.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using contract::Verdict;

contract::LabSpec spec() {
  return contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab9", "title": "test",
    "checks": [
      {"id": "T.Correctness", "kind": "correctness", "title": "exact", "points": 10},
      {"id": "T.Speed", "kind": "speed", "title": "fast", "points": 5}
    ]})"),
                              "test spec");
}

contract::CheckRecord record(const std::string& check, Verdict verdict, double fraction) {
  contract::CheckRecord r;
  r.lab = "lab9";
  r.check = check;
  r.verdict = verdict;
  r.fraction = fraction;
  r.reason = "why <b>";
  return r;
}

TEST(OutcomeFile, RoundTripGradesTheSame) {
  const auto lab = spec();
  const fs::path dir = fs::temp_directory_path() / "outcome_file_test";
  fs::remove_all(dir);
  exports::StudentOutcome graded;
  graded.student = "Zo\u00eb \"Q\" <b>";
  graded.status = "graded";
  graded.message = "a note";
  graded.report_path = "students/zoe/report.html";
  graded.grade = contract::grade_lab(
      lab, {record("T.Correctness", Verdict::fail, 0.4), record("T.Other", Verdict::pass, 1)});
  write_outcome_file(dir, "zoe", graded);

  exports::StudentOutcome refused;
  refused.student = "frank";
  refused.status = "compile error";
  refused.message = "kernel.cu does not compile";
  write_outcome_file(dir, "frank", refused);

  const auto back = read_outcome_file(dir, "zoe", lab);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->student, graded.student);
  EXPECT_EQ(back->status, "graded");
  EXPECT_EQ(back->message, "a note");
  EXPECT_EQ(back->report_path, graded.report_path);
  ASSERT_TRUE(back->grade.has_value());
  EXPECT_DOUBLE_EQ(back->grade->points, graded.grade->points);
  EXPECT_DOUBLE_EQ(back->grade->points, 4);
  EXPECT_EQ(back->grade->problems, graded.grade->problems);  // the record of no check
  EXPECT_EQ(back->grade->checks[0].verdict, Verdict::fail);
  EXPECT_EQ(back->grade->checks[1].verdict, Verdict::not_run);

  const auto refused_back = read_outcome_file(dir, "frank", lab);
  ASSERT_TRUE(refused_back.has_value());
  EXPECT_EQ(refused_back->status, "compile error");
  EXPECT_FALSE(refused_back->grade.has_value());

  EXPECT_FALSE(read_outcome_file(dir, "nobody", lab).has_value());
  fs::remove_all(dir);
}

}  // namespace
}  // namespace batch
