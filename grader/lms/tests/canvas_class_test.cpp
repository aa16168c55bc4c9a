// A Canvas class: the files of "Download Submissions" unpacked into the class folder, matched to
// the gradebook export given as the roster. What the instructor relies on: each student graded
// once, on their newest upload, under their Canvas name; a separate bonus.cu built with the
// kernel; students with nothing submitted and files matching no one listed, never dropped.
#include <gtest/gtest.h>

#include "class_folder.hpp"
#include "lms/class_match.hpp"
#include "roster_samples.hpp"

namespace lms {
namespace {

using testing::graded_named;
using testing::kernel;

const std::vector<std::string> kOptional{"bonus.cu"};

class CanvasClass : public ::testing::Test {
 protected:
  void SetUp() override {
    // John Smith (12345) uploaded kernel.cu, then again after the deadline: Canvas renamed the
    // second kernel-1.cu and marked it late.
    folder.write("smithjohn_12345_678_kernel.cu", kernel("john 1st"));
    folder.write("smithjohn_late_12345_679_kernel-1.cu", kernel("john 2nd"));
    // Zoë Ødegård (12346) uploaded the kernel and the bonus as two files.
    folder.write(
        "\xC3\xB8"
        "deg\xC3\xA5rdzo\xC3\xAB_12346_681_kernel.cu",
        kernel("zoe"));
    folder.write(
        "\xC3\xB8"
        "deg\xC3\xA5rdzo\xC3\xAB_12346_682_bonus.cu",
        "// zoe's bonus\n");
    // A second John Smith (12348): the same name in the download, another user id.
    folder.write("smithjohn_12348_690_kernel.cu", kernel("other john"));
    // Someone no longer on the roster, and a file someone dropped in by hand.
    folder.write("mysterystudent_99999_700_kernel.cu", kernel("mystery"));
    folder.write("notes.cu", kernel("notes"));
    match = match_class(folder.collect(), roster, kOptional);
  }

  testing::ClassFolder folder;
  Roster roster = parse_roster(testing::kCanvasExport, "grades.csv");
  ClassMatch match;
};

TEST_F(CanvasClass, EachStudentIsGradedOnceUnderTheirCanvasName) {
  std::vector<std::string> students;
  for (const auto& submission : match.to_grade) students.push_back(submission.student);
  EXPECT_EQ(students, (std::vector<std::string>{"Smith, John (12345)", "Smith, John (12348)",
                                                "\xC3\x98"
                                                "deg\xC3\xA5rd, Zo\xC3\xAB",
                                                "mysterystudent_99999_700_kernel", "notes"}));
}

TEST_F(CanvasClass, TheNewestResubmissionIsGradedAndTheOlderListed) {
  const auto* john = graded_named(match, "Smith, John (12345)");
  ASSERT_NE(john, nullptr);
  EXPECT_EQ(john->source.filename(), "smithjohn_late_12345_679_kernel-1.cu");
  EXPECT_NE(john->kernel_text.find("john 2nd"), std::string::npos);
  ASSERT_EQ(match.duplicates.size(), 1u);
  EXPECT_EQ(match.duplicates[0].graded, "smithjohn_late_12345_679_kernel-1.cu");
  EXPECT_EQ(match.duplicates[0].left_out,
            std::vector<std::string>{"smithjohn_12345_678_kernel.cu"});
  EXPECT_NE(match.duplicates[0].rule.find("679"), std::string::npos) << match.duplicates[0].rule;
}

TEST_F(CanvasClass, ABonusUploadedApartIsBuiltWithTheKernel) {
  const auto* zoe = graded_named(match,
                                 "\xC3\x98"
                                 "deg\xC3\xA5rd, Zo\xC3\xAB");
  ASSERT_NE(zoe, nullptr);
  EXPECT_TRUE(zoe->accepted()) << zoe->problem;
  EXPECT_NE(zoe->kernel_text.find("zoe"), std::string::npos);
  ASSERT_TRUE(zoe->optional_texts.contains("bonus.cu"));
  EXPECT_EQ(zoe->optional_texts.at("bonus.cu"), "// zoe's bonus\n");
  ASSERT_EQ(match.optional_taken.size(), 1u);
}

TEST_F(CanvasClass, NamesThatCollideAreToldApartByTheirIds) {
  const auto* other = graded_named(match, "Smith, John (12348)");
  ASSERT_NE(other, nullptr);
  EXPECT_NE(other->kernel_text.find("other john"), std::string::npos);
  EXPECT_EQ(roster.students.at(match.student_of_slug.at(other->slug)).id, "12348");
}

TEST_F(CanvasClass, ARosterStudentWithNoSubmissionIsListed) {
  ASSERT_EQ(match.missing.size(), 1u);
  EXPECT_EQ(roster.students[match.missing[0]].name, "Doe, Jane");
}

TEST_F(CanvasClass, SubmissionsMatchingNoOneAreGradedAndListedWithWhy) {
  ASSERT_EQ(match.unmatched.size(), 2u);
  EXPECT_EQ(match.unmatched[0].entry, "mysterystudent_99999_700_kernel.cu");
  EXPECT_EQ(match.unmatched[0].why, "Canvas user id 99999 is not in the roster");
  EXPECT_EQ(match.unmatched[1].entry, "notes.cu");
  EXPECT_NE(match.unmatched[1].why.find("not a Canvas download"), std::string::npos);
  EXPECT_NE(graded_named(match, "notes"), nullptr);  // graded all the same
  EXPECT_FALSE(match.student_of_slug.contains(graded_named(match, "notes")->slug));
}

TEST_F(CanvasClass, TheReportSaysAllOfIt) {
  const std::string report = match_report(roster, match, true);
  for (const char* line :
       {"Roster: grades.csv, a Canvas gradebook export of 4 students.",
        "  mysterystudent_99999_700_kernel.cu: Canvas user id 99999 is not in the roster",
        "  Doe, Jane (ID 12347)",
        "  Smith, John (ID 12345): graded smithjohn_late_12345_679_kernel-1.cu, the newest upload",
        "not graded: smithjohn_12345_678_kernel.cu",
        "bonus.cu from \xC3\xB8"
        "deg\xC3\xA5rdzo\xC3\xAB_12346_682_bonus.cu",
        "smithjohn_late_12345_679_kernel-1.cu (marked late)"}) {
    EXPECT_NE(report.find(line), std::string::npos) << line << "\nin:\n" << report;
  }
  EXPECT_EQ(match_report(roster, match, false).find("marked late"), std::string::npos);
}

// A bonus.cu alone is not a kernel: the student's line says so instead of building it as one.
TEST(CanvasOnlyBonus, IsNotGradedAsTheKernel) {
  testing::ClassFolder folder;
  folder.write("smithjohn_12345_678_bonus.cu", "// only the bonus\n");
  const Roster roster = parse_roster(testing::kCanvasExport, "grades.csv");
  const ClassMatch match = match_class(folder.collect(), roster, kOptional);
  const auto* john = graded_named(match, "Smith, John (12345)");
  ASSERT_NE(john, nullptr);
  EXPECT_FALSE(john->accepted());
  EXPECT_EQ(john->problem, "no kernel file: only bonus.cu was submitted");
}

// A name whose file part reads two ways goes to the student the roster has.
TEST(CanvasAmbiguousName, TheRosterDecides) {
  testing::ClassFolder folder;
  folder.write("smithjohn_12345_678_run_1_2_final.cu", kernel("john"));
  const Roster roster = parse_roster("name,id\nJohn Smith,12345\nOne,1\n", "r.csv");
  const ClassMatch match = match_class(folder.collect(), roster, kOptional);
  ASSERT_EQ(match.to_grade.size(), 1u);
  EXPECT_EQ(match.to_grade[0].student, "John Smith");
}

}  // namespace
}  // namespace lms
