// The class list a batch maps submissions to (`labgrade batch --roster FILE`): a plain roster
// (name, id, ...), a Canvas gradebook export or a Moodle grading worksheet or grades export, told
// apart by the header. A roster is the instructor's file, but it is read as untrusted text: every
// problem is one line naming the file and the line ("roster.csv:7: id 12345 is also on line 3").
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace lms {

struct RosterError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class RosterKind {
  plain,             // name, id and optionally email, sis_user_id, sis_login_id, section
  canvas,            // Grades > Export: Student, ID, SIS User ID, SIS Login ID, Section, ...
  moodle_worksheet,  // the assignment's "Download grading worksheet": Identifier, Full name, ...
  moodle_grades,     // Grade administration > Export > Plain text: First name, Last name, ...
};

// "a Canvas gradebook export", "a Moodle grading worksheet", ...: for messages and the report.
std::string_view kind_words(RosterKind kind);

struct RosterStudent {
  std::size_t line = 0;  // the file's line where the student's row starts
  std::string name;      // as the LMS writes it: Canvas "Smith, John", Moodle "John Smith"
  // What the LMS's download names carry: a Canvas user ID, a Moodle participant number (the
  // worksheet's Identifier without its words), a plain roster's id. Empty in a Moodle grades
  // export, which has no participant numbers (students are then found by name).
  std::string id;
  std::string identifier;  // the Moodle worksheet's Identifier as written ("Participant 123456")
  std::string sis_user_id;
  std::string sis_login_id;
  std::string section;
  std::string email;
  std::string id_number;  // Moodle's "ID number"
  // The worksheet's "Last modified (grade)", handed back unchanged on upload: Moodle skips a
  // student graded in Moodle after the worksheet was downloaded (it compares the two).
  std::string grade_modified;
};

// An assignment column of a Canvas export: "Lab 6: Tiled matmul (4242)".
struct CanvasColumn {
  std::string title;                      // "Lab 6: Tiled matmul"
  std::string id;                         // "4242"
  std::optional<double> points_possible;  // from the export's "Points Possible" row
  std::string header() const;             // "Lab 6: Tiled matmul (4242)"
};

struct Roster {
  std::filesystem::path file;
  RosterKind kind = RosterKind::plain;
  std::vector<RosterStudent> students;
  std::vector<CanvasColumn> canvas_assignments;  // a Canvas export's assignment columns
  std::optional<double> moodle_maximum_grade;    // a worksheet's "Maximum Grade"
};

// Reads and checks a roster: UTF-8 (a byte-order mark is fine), comma or semicolon separated,
// quoted fields as spreadsheets write them. Throws RosterError "FILE:LINE: what is wrong" for an
// unreadable or empty file, a header of no known kind, an unknown column in a plain roster, a
// student without an id (or name), two students with one id, a quote never closed.
Roster read_roster(const std::filesystem::path& file);

// The same from text already read; `file` names it in messages.
Roster parse_roster(std::string_view text, const std::filesystem::path& file);

}  // namespace lms
