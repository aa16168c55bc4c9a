// Moodle's two class lists. The assignment's grading worksheet (View all submissions > Download
// grading worksheet, with "Offline grading worksheet" on in the assignment's feedback types):
// Identifier ("Participant 123456": the number every download of the assignment carries), Full
// name, Email address, Status, Grade, Maximum Grade, ..., Last modified (grade), Feedback
// comments. The course's grades export (Grade administration > Export > Plain text file): First
// name, Last name, ID number, Institution, Department, Email address, then the grade items; it
// has no participant numbers, so its students are found by name. Headers are Moodle's English
// ones (mod/assign/lang/en/assign.php: recordid "Identifier", hiddenuser "Participant ").
#include <fmt/format.h>

#include "roster_formats.hpp"

namespace lms {
namespace {

// The participant number at the end of an Identifier, whatever words the site's language puts
// before it ("Participant 123456", "Teilnehmer/in 123456"); empty when there is none.
std::string participant_number(const std::string& identifier) {
  const auto space = identifier.find_last_of(' ');
  const std::string number = space == std::string::npos ? identifier : identifier.substr(space + 1);
  return all_digits(number) ? number : std::string();
}

std::string field_or_empty(const CsvRow& row, std::optional<std::size_t> column) {
  return column ? row.at(*column) : std::string();
}

}  // namespace

bool is_moodle_worksheet_header(const Header& header) {
  return header.find("Identifier") && header.find("Full name");
}

void read_moodle_worksheet(const Header& header, const std::vector<CsvRow>& rows, Roster& roster) {
  const std::size_t identifier = *header.find("Identifier");
  const std::size_t full_name = *header.find("Full name");
  const auto email = header.find("Email address");
  const auto id_number = header.find("ID number");
  const auto modified = header.find("Last modified (grade)");
  const auto maximum = header.find_folded("Maximum grade");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const CsvRow& row = rows[r];
    RosterStudent student;
    student.line = row.line;
    student.identifier = row.at(identifier);
    student.id = participant_number(student.identifier);
    if (student.id.empty()) {
      roster_error(
          roster, row.line,
          fmt::format("Identifier '{}' does not end in a participant number", student.identifier));
    }
    student.name = row.at(full_name);
    student.email = field_or_empty(row, email);
    student.id_number = field_or_empty(row, id_number);
    student.grade_modified = field_or_empty(row, modified);
    if (maximum && !roster.moodle_maximum_grade) {
      roster.moodle_maximum_grade = number_of(row.at(*maximum));
    }
    roster.students.push_back(std::move(student));
  }
}

bool is_moodle_grades_header(const Header& header) {
  return header.find("First name") && header.find("Last name") && header.find("Email address");
}

void read_moodle_grades(const Header& header, const std::vector<CsvRow>& rows, Roster& roster) {
  const std::size_t first = *header.find("First name");
  const std::size_t last = *header.find("Last name");
  const std::size_t email = *header.find("Email address");
  const auto id_number = header.find("ID number");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const CsvRow& row = rows[r];
    RosterStudent student;
    student.line = row.line;
    student.name = trimmed(fmt::format("{} {}", row.at(first), row.at(last)));
    if (student.name.empty()) roster_error(roster, row.line, "a student with no name");
    student.email = row.at(email);
    student.id_number = field_or_empty(row, id_number);
    roster.students.push_back(std::move(student));
  }
}

}  // namespace lms
