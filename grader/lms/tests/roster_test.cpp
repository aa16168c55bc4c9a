// Rosters read as the LMSs export them: the kind told by the header, the students and what each
// export says of the assignment.
#include "lms/roster.hpp"

#include <gtest/gtest.h>

#include "roster_samples.hpp"

namespace lms {
namespace {

TEST(Roster, ReadsACanvasGradebookExport) {
  const Roster roster = parse_roster(testing::kCanvasExport, "grades.csv");
  EXPECT_EQ(roster.kind, RosterKind::canvas);
  ASSERT_EQ(roster.students.size(), 4u);  // not the Points Possible or Manual Posting rows
  const RosterStudent& john = roster.students[0];
  EXPECT_EQ(john.name, "Smith, John");
  EXPECT_EQ(john.id, "12345");
  EXPECT_EQ(john.sis_user_id, "S001");
  EXPECT_EQ(john.sis_login_id, "jsmith");
  EXPECT_EQ(john.section, "CS 401 Section 1");
  EXPECT_EQ(john.line, 4u);
  EXPECT_EQ(roster.students[1].name,
            "\xC3\x98"
            "deg\xC3\xA5rd, Zo\xC3\xAB");
  ASSERT_EQ(roster.canvas_assignments.size(), 2u);
  EXPECT_EQ(roster.canvas_assignments[1].title, "Lab 6: Tiled matmul");
  EXPECT_EQ(roster.canvas_assignments[1].id, "4242");
  EXPECT_EQ(roster.canvas_assignments[1].header(), "Lab 6: Tiled matmul (4242)");
  EXPECT_EQ(roster.canvas_assignments[1].points_possible, 100.0);
}

// A spreadsheet set to a decimal comma saves CSV with semicolons.
TEST(Roster, ReadsASemicolonSeparatedExport) {
  const Roster roster = parse_roster(
      "Student;ID;SIS User ID;SIS Login ID;Section;Lab 6 (4242)\n"
      "Points Possible;;;;;12,50\n"
      "Smith, John;12345;S001;jsmith;A;\n",
      "grades.csv");
  EXPECT_EQ(roster.kind, RosterKind::canvas);
  ASSERT_EQ(roster.students.size(), 1u);
  EXPECT_EQ(roster.students[0].name, "Smith, John");
  EXPECT_EQ(roster.canvas_assignments.at(0).points_possible, 12.5);
}

TEST(Roster, ReadsAMoodleGradingWorksheet) {
  const Roster roster = parse_roster(testing::kMoodleWorksheet, "worksheet.csv");
  EXPECT_EQ(roster.kind, RosterKind::moodle_worksheet);
  ASSERT_EQ(roster.students.size(), 5u);
  EXPECT_EQ(roster.students[0].identifier, "Participant 123456");
  EXPECT_EQ(roster.students[0].id, "123456");
  EXPECT_EQ(roster.students[0].name,
            "Zo\xC3\xAB \xC3\x98"
            "deg\xC3\xA5rd");
  EXPECT_EQ(roster.students[0].email, "zoe@example.edu");
  EXPECT_EQ(roster.students[1].grade_modified, "Tuesday, 3 December 2024, 9:00 AM");
  EXPECT_EQ(roster.moodle_maximum_grade, 100.0);
}

// The participant number follows the site's own word for "Participant".
TEST(Roster, AWorksheetInAnotherLanguageStillHasItsNumbers) {
  const Roster roster =
      parse_roster("Identifier,Full name\nTeilnehmer/in 123456,Zo\xC3\xAB\n", "w.csv");
  EXPECT_EQ(roster.students.at(0).id, "123456");
  EXPECT_EQ(roster.students.at(0).identifier, "Teilnehmer/in 123456");
}

TEST(Roster, ReadsAMoodleGradesExportWithoutIds) {
  const Roster roster = parse_roster(testing::kMoodleGradesExport, "grades.txt");
  EXPECT_EQ(roster.kind, RosterKind::moodle_grades);
  ASSERT_EQ(roster.students.size(), 4u);
  EXPECT_EQ(roster.students[0].name,
            "Zo\xC3\xAB \xC3\x98"
            "deg\xC3\xA5rd");
  EXPECT_EQ(roster.students[0].id, "");
  EXPECT_EQ(roster.students[0].id_number, "s001");
  EXPECT_EQ(roster.students[2].email, "ann2@example.edu");
}

TEST(Roster, ReadsAPlainRosterInAnyColumnOrderAndCase) {
  const Roster roster = parse_roster(
      "ID,Email,Name\r\ns1234567,bob@example.edu,\"Jones, Bob \"\"BJ\"\"\"\r\n\r\n", "r.csv");
  EXPECT_EQ(roster.kind, RosterKind::plain);
  ASSERT_EQ(roster.students.size(), 1u);
  EXPECT_EQ(roster.students[0].id, "s1234567");
  EXPECT_EQ(roster.students[0].name, "Jones, Bob \"BJ\"");
  EXPECT_EQ(roster.students[0].email, "bob@example.edu");
}

// A quoted name with a line break in it: the next student's line is still counted right.
TEST(Roster, LinesAreCountedThroughQuotedLineBreaks) {
  const Roster roster = parse_roster("name,id\n\"Ann\nLee\",1\nBob,2\n", "r.csv");
  ASSERT_EQ(roster.students.size(), 2u);
  EXPECT_EQ(roster.students[0].line, 2u);
  EXPECT_EQ(roster.students[1].line, 4u);
}

}  // namespace
}  // namespace lms
