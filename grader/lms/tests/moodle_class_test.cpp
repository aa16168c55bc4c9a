// A Moodle class: "Download all submissions" unpacked into the class folder (a folder per
// student since Moodle 3.1, loose prefixed files without "download as folders", "Participant_"
// under blind marking), matched to the grading worksheet or to the course's grades export.
#include <gtest/gtest.h>

#include "class_folder.hpp"
#include "lms/class_match.hpp"
#include "roster_samples.hpp"

namespace lms {
namespace {

using testing::graded_named;
using testing::kernel;

const std::vector<std::string> kOptional{"bonus.cu"};
const std::string kZoe =
    "Zo\xC3\xAB \xC3\x98"
    "deg\xC3\xA5rd";

class MoodleClass : public ::testing::Test {
 protected:
  void SetUp() override {
    folder.write(kZoe + "_123456_assignsubmission_file/kernel.cu", kernel("zoe"));
    folder.write(kZoe + "_123456_assignsubmission_file/bonus.cu", "// zoe's bonus\n");
    folder.write("John Smith_123457_assignsubmission_file_/labs/lab1-matrix-copy/kernel.cu",
                 kernel("john"));
    folder.write("Jean-Luc Picard_123458_assignsubmission_file_kernel.cu", kernel("picard"));
    folder.write("Participant_123459_assignsubmission_file/kernel.cu", kernel("ann, blind"));
    folder.write("Someone Else_555_assignsubmission_file/kernel.cu", kernel("someone"));
  }

  testing::ClassFolder folder;
};

TEST_F(MoodleClass, TheWorksheetMatchesEveryShapeByParticipant) {
  const Roster roster = parse_roster(testing::kMoodleWorksheet, "worksheet.csv");
  const ClassMatch match = match_class(folder.collect(), roster, kOptional);
  const auto* zoe = graded_named(match, kZoe);
  ASSERT_NE(zoe, nullptr);
  EXPECT_TRUE(zoe->accepted()) << zoe->problem;
  EXPECT_EQ(zoe->optional_texts.at("bonus.cu"), "// zoe's bonus\n");  // beside the kernel
  EXPECT_NE(graded_named(match, "John Smith"), nullptr);
  const auto* picard = graded_named(match, "Jean-Luc Picard");
  ASSERT_NE(picard, nullptr);
  EXPECT_NE(picard->kernel_text.find("picard"), std::string::npos);
  const auto* ann = graded_named(match, "Ann Lee");  // blind marking: found by participant
  ASSERT_NE(ann, nullptr);
  EXPECT_NE(ann->kernel_text.find("ann, blind"), std::string::npos);
  ASSERT_EQ(match.missing.size(), 1u);
  EXPECT_EQ(roster.students[match.missing[0]].name, "Max Mustermann");
  ASSERT_EQ(match.unmatched.size(), 1u);
  EXPECT_EQ(match.unmatched[0].entry, "Someone Else_555_assignsubmission_file");
  EXPECT_EQ(match.unmatched[0].why, "participant 555 is not in the worksheet");
  EXPECT_TRUE(match.duplicates.empty());
}

// A folder and loose files of one participant: one is graded, the other listed.
TEST_F(MoodleClass, TwoEntriesOfOneParticipantAreOneGradedOneListed) {
  folder.write("Jean-Luc Picard_123458_assignsubmission_file/kernel.cu", kernel("picard folder"));
  const Roster roster = parse_roster(testing::kMoodleWorksheet, "worksheet.csv");
  const ClassMatch match = match_class(folder.collect(), roster, kOptional);
  ASSERT_EQ(match.duplicates.size(), 1u);
  EXPECT_EQ(match.duplicates[0].left_out.size(), 1u);
  EXPECT_EQ(roster.students[match.duplicates[0].student].name, "Jean-Luc Picard");
  EXPECT_EQ(std::count_if(match.to_grade.begin(), match.to_grade.end(),
                          [](const auto& s) { return s.student == "Jean-Luc Picard"; }),
            1);
}

// The grades export has no participant numbers: students are found by their full name, accents
// and all; two students of one name cannot be told apart, and the submission says so.
TEST_F(MoodleClass, TheGradesExportMatchesByNameAndRefusesToGuess) {
  folder.write("Ann Lee_123461_assignsubmission_file/kernel.cu", kernel("which ann"));
  const Roster roster = parse_roster(testing::kMoodleGradesExport, "grades.txt");
  const ClassMatch match = match_class(folder.collect(), roster, kOptional);
  EXPECT_NE(graded_named(match, kZoe), nullptr);
  EXPECT_NE(graded_named(match, "Jean-Luc Picard"), nullptr);
  const auto ann = std::find_if(match.unmatched.begin(), match.unmatched.end(), [](const auto& u) {
    return u.entry == "Ann Lee_123461_assignsubmission_file";
  });
  ASSERT_NE(ann, match.unmatched.end());
  EXPECT_EQ(ann->why, "2 roster students are named 'Ann Lee' (lines 3, 4): give the roster ids");
  EXPECT_NE(graded_named(match, "Ann Lee_123461_assignsubmission_file"), nullptr);  // still graded
}

// A plain roster: LMS ids where the names carry them, else the folder's name as the id or the
// student's name.
TEST(PlainRoster, MatchesByIdOrByName) {
  testing::ClassFolder folder;
  folder.write("s1234567/labs/lab1-matrix-copy/kernel.cu", kernel("by id"));
  folder.write("Bob Jones.cu", kernel("by name"));
  folder.write("Jean-Luc Picard_123458_assignsubmission_file_kernel.cu", kernel("picard"));
  const Roster roster = parse_roster(
      "name,id\nAnn Lee,s1234567\nbob jones,s7654321\nJean-Luc Picard,123458\n", "r.csv");
  const ClassMatch match = match_class(folder.collect(), roster, kOptional);
  EXPECT_NE(graded_named(match, "Ann Lee"), nullptr);
  EXPECT_NE(graded_named(match, "bob jones"), nullptr);
  EXPECT_NE(graded_named(match, "Jean-Luc Picard"), nullptr);
  EXPECT_TRUE(match.unmatched.empty());
  EXPECT_TRUE(match.missing.empty());
}

}  // namespace
}  // namespace lms
