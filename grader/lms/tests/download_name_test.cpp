// Download names as Canvas and Moodle write them (canvas-lms ContentZipper, Moodle's
// mod_assign\downloader), read for the ids the roster is matched by.
#include "lms/download_name.hpp"

#include <gtest/gtest.h>

namespace lms {
namespace {

DownloadName only_reading(std::string_view stem) {
  const auto readings = read_download_name(stem);
  EXPECT_EQ(readings.size(), 1u) << stem;
  return readings.empty() ? DownloadName{} : readings.front();
}

TEST(CanvasName, CarriesTheUserAndTheAttachment) {
  const DownloadName name = only_reading("smithjohn_12345_678_kernel");
  EXPECT_EQ(name.lms, Lms::canvas);
  EXPECT_EQ(name.name, "smithjohn");
  EXPECT_EQ(name.id, "12345");
  EXPECT_EQ(name.attachment, 678u);
  EXPECT_EQ(name.original, "kernel");
  EXPECT_FALSE(name.late);
  EXPECT_EQ(name.resubmission, 0);
}

// Canvas marks a late submission in the name ("LATE", lowercased by its sanitizer since 2017)
// and renames a file submitted again under a name already used: kernel.cu, then kernel-1.cu.
TEST(CanvasName, ALateResubmissionIsMarkedAndNumbered) {
  for (const char* stem :
       {"smithjohn_late_12345_679_kernel-1", "smithjohn_LATE_12345_679_kernel-1"}) {
    const DownloadName name = only_reading(stem);
    EXPECT_TRUE(name.late) << stem;
    EXPECT_EQ(name.id, "12345") << stem;
    EXPECT_EQ(name.attachment, 679u) << stem;
    EXPECT_EQ(name.original, "kernel-1") << stem;
    EXPECT_EQ(name.original_base, "kernel") << stem;
    EXPECT_EQ(name.resubmission, 1) << stem;
    EXPECT_EQ(name.name, "smithjohn") << stem;
  }
}

// Canvas before 2017 replaced punctuation by '-' and wrote " LATE_" before the id.
TEST(CanvasName, TheOlderLateMarkIsRead) {
  const DownloadName name = only_reading("smith--john-late_12345_680_kernel");
  EXPECT_TRUE(name.late);
  EXPECT_EQ(name.name, "smith--john");
  EXPECT_EQ(name.id, "12345");
}

// Canvas keeps letters of every script (its [[:word:]]), so accents stay in the name.
TEST(CanvasName, KeepsAccentedLetters) {
  const DownloadName name = only_reading(
      "\xC3\xB8"
      "deg\xC3\xA5rdzo\xC3\xAB_12346_681_kernel");
  EXPECT_EQ(name.name,
            "\xC3\xB8"
            "deg\xC3\xA5rdzo\xC3\xAB");
  EXPECT_EQ(name.id, "12346");
}

// Under anonymous grading Canvas leaves the name out.
TEST(CanvasName, MayHaveNoName) {
  const DownloadName name = only_reading("12345_678_kernel");
  EXPECT_EQ(name.name, "");
  EXPECT_EQ(name.id, "12345");
}

TEST(CanvasName, TheStudentsFileNameKeepsItsUnderscores) {
  const DownloadName name = only_reading("leeann_12347_682_my_kernel_v2");
  EXPECT_EQ(name.original, "my_kernel_v2");
  EXPECT_EQ(name.id, "12347");
}

// A file name with "_<digits>_<digits>_" in it can be read two ways: both are offered, the
// likelier (the first ids in the name) first, and the roster decides.
TEST(CanvasName, AnAmbiguousNameGivesEveryReading) {
  const auto readings = read_download_name("leeann_12347_682_run_1_2_final");
  ASSERT_EQ(readings.size(), 2u);
  EXPECT_EQ(readings[0].id, "12347");
  EXPECT_EQ(readings[0].original, "run_1_2_final");
  EXPECT_EQ(readings[1].id, "1");
}

TEST(MoodleName, AFolderCarriesTheFullNameAndTheParticipant) {
  const DownloadName name = only_reading(
      "Zo\xC3\xAB \xC3\x98"
      "deg\xC3\xA5rd_123456_assignsubmission_file");
  EXPECT_EQ(name.lms, Lms::moodle);
  EXPECT_EQ(name.name,
            "Zo\xC3\xAB \xC3\x98"
            "deg\xC3\xA5rd");
  EXPECT_EQ(name.id, "123456");
  EXPECT_EQ(name.original, "");
  EXPECT_EQ(name.attachment, 0u);
}

// Moodle before 4.1 ended the folder name with '_'; without "download as folders" each file
// carries the prefix.
TEST(MoodleName, OlderFoldersAndLooseFilesToo) {
  EXPECT_EQ(only_reading("John Smith_123457_assignsubmission_file_").original, "");
  const DownloadName loose = only_reading("Jean-Luc Picard_123458_assignsubmission_file_kernel");
  EXPECT_EQ(loose.name, "Jean-Luc Picard");
  EXPECT_EQ(loose.id, "123458");
  EXPECT_EQ(loose.original, "kernel");
}

TEST(MoodleName, BlindMarkingHidesTheNameNotTheParticipant) {
  const DownloadName name = only_reading("Participant_123459_assignsubmission_file");
  EXPECT_EQ(name.name, "Participant");
  EXPECT_EQ(name.id, "123459");
}

TEST(DownloadName, OtherNamesAreNeither) {
  for (const char* stem : {"alice", "Bob Jones", "Smith_12_34_x", "bob jones_12_34_x",
                           "smithjohn_12345_kernel", "x_assignsubmission_file"}) {
    EXPECT_TRUE(read_download_name(stem).empty()) << stem;
  }
}

}  // namespace
}  // namespace lms
