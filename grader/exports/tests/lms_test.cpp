// canvas.csv and moodle.csv: the columns each LMS's import reads, one row per student the roster
// placed, scores in the LMS's points, feedback that is the grader's words only, and every cell
// safe in a spreadsheet (quoted, formulas guarded) and in Moodle's HTML feedback.
#include "exports/lms_gradebooks.hpp"

#include <gtest/gtest.h>

#include "class_fixture.hpp"
#include "csv_rows.hpp"

namespace exports {
namespace {

using contract::Verdict;
using testing::parse_csv;
using testing::record;

LmsIdentity canvas_student(std::string name, std::string id) {
  LmsIdentity who;
  who.name = std::move(name);
  who.canvas_user_id = std::move(id);
  who.sis_user_id = "S-" + who.canvas_user_id;
  who.sis_login_id = "login" + who.canvas_user_id;
  who.section = "CS 401, Section 1";
  return who;
}

LmsIdentity moodle_student(std::string name, std::string identifier) {
  LmsIdentity who;
  who.name = std::move(name);
  who.moodle_identifier = std::move(identifier);
  who.email = "student@example.edu";
  who.moodle_grade_modified = "Tuesday, 3 December 2024, 9:00 AM";
  return who;
}

class LmsExports : public ::testing::Test {
 protected:
  void SetUp() override {
    auto alice = testing::graded(
        spec, "alice",
        {record("Tiled.Correctness", Verdict::pass), record("Tiled.SharedMemory", Verdict::pass),
         record("Tiled.Speed", Verdict::pass)});
    alice.lms = canvas_student("Smith, Alice", "101");
    auto half = testing::graded(spec, "half",
                                {record("Tiled.Correctness", Verdict::fail, "wrong <b>", 0.5),
                                 record("Tiled.SharedMemory", Verdict::error, "crash"),
                                 record("Tiled.Speed", Verdict::inconclusive, "busy")});
    half.lms = canvas_student(testing::kFormulaName, "102");
    auto broken = testing::ungraded("broken", "compile error",
                                    "kernel.cu(3): error </pre><script>x()</script>");
    broken.lms = canvas_student("=HYPERLINK(\"http://x\")", "103");
    auto unfinished = testing::ungraded("later", "grader error", "the sandbox failed");
    unfinished.lms = canvas_student("Later, Lee", "104");
    auto unmatched = testing::graded(spec, "nobody", {record("Tiled.Correctness", Verdict::pass)});
    outcomes = {alice, half, broken, unfinished, unmatched};
  }

  contract::LabSpec spec = testing::make_spec();  // 20 points: 10 + 5 + 5
  std::vector<StudentOutcome> outcomes;
};

TEST_F(LmsExports, CanvasHasItsImportColumnsAndOneRowPerPlacedStudent) {
  const auto rows = parse_csv(canvas_csv(spec, outcomes, {"Lab 9: Tiled (4242)", 100.0}));
  ASSERT_EQ(rows.size(), 5u);  // header + the four students the roster placed, not "nobody"
  EXPECT_EQ(rows[0], (std::vector<std::string>{"Student", "ID", "SIS User ID", "SIS Login ID",
                                               "Section", "Lab 9: Tiled (4242)"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"Smith, Alice", "101", "S-101", "login101",
                                               "CS 401, Section 1", "100"}));
}

// 20 of 20 points is 100 in an assignment out of 100, half of the correctness points 25; a
// compile error earns 0; a student the grader did not finish with gets no score (no change).
TEST_F(LmsExports, CanvasScoresAreScaledToThePointsPossible) {
  const auto rows = parse_csv(canvas_csv(spec, outcomes, {"Lab 9 (4242)", 100.0}));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1][5], "100");
  EXPECT_EQ(rows[2][5], "25");
  EXPECT_EQ(rows[3][5], "0");
  EXPECT_EQ(rows[4][5], "");
  const auto raw = parse_csv(canvas_csv(spec, outcomes, {"Lab 9 (4242)", std::nullopt}));
  EXPECT_EQ(raw[1][5], "20");
  EXPECT_EQ(raw[2][5], "5");
}

TEST_F(LmsExports, NamesCannotBecomeFormulas) {
  const std::string csv = canvas_csv(spec, outcomes, {"Lab 9 (4242)", std::nullopt});
  const auto rows = parse_csv(csv);
  EXPECT_EQ(rows[2][0], "'" + testing::kFormulaName);
  EXPECT_EQ(rows[3][0], "'=HYPERLINK(\"http://x\")");
  EXPECT_EQ(csv.find("\n="), std::string::npos);
  EXPECT_EQ(csv.find(",="), std::string::npos);
}

class MoodleExport : public LmsExports {
 protected:
  void SetUp() override {
    LmsExports::SetUp();
    for (std::size_t i = 0; i < 4; ++i) {
      outcomes[i].lms =
          moodle_student(outcomes[i].lms->name, "Participant 12345" + std::to_string(i));
    }
    rows = parse_csv(moodle_csv(spec, outcomes, {100.0}));
  }
  std::vector<std::vector<std::string>> rows;
};

TEST_F(MoodleExport, HasTheWorksheetColumnsMoodleUploads) {
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"Identifier", "Full name", "Email address", "Grade",
                                               "Maximum Grade", "Last modified (grade)",
                                               "Feedback comments"}));
  EXPECT_EQ(rows[1][0], "Participant 123450");
  EXPECT_EQ(rows[1][3], "100");
  EXPECT_EQ(rows[1][4], "100");
  // Moodle compares it with the grade's own time: handed back as the worksheet had it.
  EXPECT_EQ(rows[1][5], "Tuesday, 3 December 2024, 9:00 AM");
  EXPECT_EQ(rows[4][3], "");  // the grader did not finish: no grade
}

TEST_F(MoodleExport, FeedbackSaysTheScoreAndWhatDidNotPass) {
  const std::string& half = rows[2][6];
  EXPECT_NE(half.find("lab9 (Tiled &lt;b&gt;matmul&lt;/b&gt; &amp; friends): 5 / 20 points."),
            std::string::npos)
      << half;
  EXPECT_NE(half.find("Not passed: matmul_tiled is exact (5 of 10); uses shared memory (0 of 5); "
                      "reaches 10% of cuBLAS (0 of 5)."),
            std::string::npos)
      << half;
  EXPECT_EQ(rows[1][6].find("Not passed"), std::string::npos) << rows[1][6];
  EXPECT_NE(rows[3][6].find("0 / 20 points: compile error."), std::string::npos) << rows[3][6];
  EXPECT_NE(rows[4][6].find("not graded yet (grader error)"), std::string::npos) << rows[4][6];
}

// Moodle keeps feedback comments as HTML: nothing of the student's reaches them, and the spec's
// own markup is escaped to show as written.
TEST_F(MoodleExport, FeedbackHoldsNoMarkupAndNothingOfTheStudents) {
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const std::string& feedback = rows[r][6];
    EXPECT_EQ(feedback.find('<'), std::string::npos) << feedback;
    EXPECT_EQ(feedback.find("script"), std::string::npos) << feedback;
    EXPECT_EQ(feedback.find("sandbox"), std::string::npos) << feedback;
    EXPECT_EQ(feedback.find('\n'), std::string::npos) << feedback;
  }
}

// A bonus can take a student past the maximum: Moodle would skip that grade, so the maximum is
// written (Canvas takes scores above the points possible).
TEST(LmsScore, BonusPointsAreCappedForMoodleOnly) {
  const auto spec = contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab9", "title": "Copy", "checks": [
      {"id": "Copy.Correctness", "kind": "correctness", "title": "exact", "points": 10},
      {"id": "Copy.Bonus", "kind": "speed", "title": "fast", "points": 5, "bonus": true}]})"),
                                         "bonus spec");
  StudentOutcome outcome = testing::graded(
      spec, "ann",
      {record("Copy.Correctness", Verdict::pass), record("Copy.Bonus", Verdict::pass)});
  EXPECT_EQ(lms_score(spec, outcome, 100.0, false), 150.0);
  EXPECT_EQ(lms_score(spec, outcome, 100.0, true), 100.0);
  EXPECT_EQ(lms_score(spec, outcome, std::nullopt, true), 15.0);
  EXPECT_NE(lms_feedback(spec, outcome).find("15 / 10 points (+5 of 5 bonus)"), std::string::npos)
      << lms_feedback(spec, outcome);
}

}  // namespace
}  // namespace exports
