// A roster that cannot be used stops the batch before anything is graded, with one line naming the
// file and the line: what an instructor fixes in a spreadsheet.
#include <gtest/gtest.h>

#include <filesystem>

#include "lms/roster.hpp"

namespace lms {
namespace {

std::string error_of(std::string_view text) {
  try {
    parse_roster(text, "class.csv");
  } catch (const RosterError& error) {
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
    return message;
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

void expect_starts(const std::string& message, std::string_view start) {
  EXPECT_TRUE(message.starts_with(start)) << message;
}

TEST(RosterErrors, AnUnknownColumnOfAPlainRosterIsNamed) {
  const std::string message = error_of("name,id,emial\nAnn,1,a@x\n");
  expect_starts(message, "class.csv:1: unknown column 'emial'");
}

TEST(RosterErrors, APlainRosterNeedsNameAndId) {
  expect_starts(error_of("name,email\nAnn,a@x\n"), "class.csv:1: no id column");
}

TEST(RosterErrors, TwoStudentsWithOneIdAreRefusedWithBothLines) {
  const std::string message = error_of("name,id\nAnn,7\nBob,8\nCid,7\n");
  expect_starts(message, "class.csv:4: id 7 is also on line 2");
}

TEST(RosterErrors, ACanvasStudentNeedsANumericId) {
  expect_starts(error_of("Student,ID,Section\n\"Smith, John\",,A\n"),
                "class.csv:2: a student with no ID");
  expect_starts(error_of("Student,ID,Section\n\"Smith, John\",js7,A\n"),
                "class.csv:2: ID 'js7' is not a Canvas user ID");
}

TEST(RosterErrors, AWorksheetIdentifierNeedsItsParticipantNumber) {
  expect_starts(error_of("Identifier,Full name\nParticipant,Ann\n"),
                "class.csv:2: Identifier 'Participant' does not end in a participant number");
}

TEST(RosterErrors, AStudentWithoutAnIdOrNameIsRefused) {
  expect_starts(error_of("name,id\nAnn,\n"), "class.csv:2: a student with no id");
  expect_starts(error_of("name,id\n,5\n"), "class.csv:2: a student with no name");
}

TEST(RosterErrors, AQuoteNeverClosedNamesTheLineItOpened) {
  expect_starts(error_of("name,id\nAnn,1\n\"Bob,2\nCid,3\n"),
                "class.csv:3: a quoted field is never closed");
  expect_starts(error_of("name,id\n\"Ann\"x,1\n"), "class.csv:2: text after a closing quote");
}

// Excel's plain "CSV" is Windows-1252: the accents would be garbled, so the file is refused.
TEST(RosterErrors, TextThatIsNotUtf8IsRefusedWithItsLine) {
  const std::string message = error_of("name,id\nAnn,1\nZo\xEB,2\n");
  expect_starts(message, "class.csv:3: not UTF-8 text");
  EXPECT_NE(message.find("CSV UTF-8"), std::string::npos) << message;
}

TEST(RosterErrors, AHeaderOfNoKnownKindSaysWhatIsExpected) {
  const std::string message = error_of("Vorname,Nachname\nAnn,Lee\n");
  expect_starts(message, "class.csv:1: not a roster: its header (Vorname, Nachname)");
  EXPECT_NE(message.find("Canvas gradebook export"), std::string::npos) << message;
  EXPECT_NE(message.find("Moodle grading worksheet"), std::string::npos) << message;
}

TEST(RosterErrors, EmptyRostersAreRefused) {
  expect_starts(error_of(""), "class.csv: the roster is empty");
  expect_starts(error_of("\xEF\xBB\xBFname,id\r\n\r\n"),
                "class.csv: a plain roster with no students");
}

TEST(RosterErrors, AMissingFileIsNamed) {
  try {
    read_roster("/nonexistent/roster.csv");
    FAIL() << "read a missing file";
  } catch (const RosterError& error) {
    expect_starts(error.what(), "/nonexistent/roster.csv: cannot read the roster");
  }
}

}  // namespace
}  // namespace lms
