// A Canvas gradebook export (Grades > Export): Student, ID, then SIS User ID, SIS Login ID (and
// Integration ID, Root Account where the course has them), Section, then the custom columns and
// the assignments as "Title (id)", then the read-only score columns. A "Points Possible" row and
// a "Manual Posting" (once "Muted") row may follow the header. Canvas's own importer reads the
// same columns (app/models/gradebook_importer.rb, canvas-lms).
#include <fmt/format.h>

#include "roster_formats.hpp"

namespace lms {
namespace {

// "Lab 6: Tiled matmul (4242)" -> {"Lab 6: Tiled matmul", "4242"}; nullopt for other columns.
std::optional<CanvasColumn> assignment_column(const std::string& header) {
  if (!header.ends_with(')')) return std::nullopt;
  const auto open = header.rfind(" (");
  if (open == std::string::npos || open == 0) return std::nullopt;
  const std::string id = header.substr(open + 2, header.size() - open - 3);
  if (!all_digits(id)) return std::nullopt;
  return CanvasColumn{header.substr(0, open), id, std::nullopt};
}

// The row under the header that says which assignments are muted or posted by hand: only
// "Muted", "Manual Posting..." and blanks (Canvas's importer skips it the same way).
bool is_posting_row(const CsvRow& row) {
  for (std::size_t i = 0; i < row.fields.size(); ++i) {
    const std::string field = lower_ascii(row.at(i));
    if (!field.empty() && field != "muted" && !field.starts_with("manual posting")) return false;
  }
  return true;
}

struct CanvasColumns {
  bool split_names = false;  // LastName, FirstName instead of Student
  std::size_t id = 1;
  std::optional<std::size_t> sis_user_id;
  std::optional<std::size_t> sis_login_id;
  std::size_t section = 0;
  std::vector<std::size_t> assignments;  // parallel to Roster::canvas_assignments
};

CanvasColumns columns_of(const Header& header, Roster& roster) {
  CanvasColumns columns;
  columns.split_names = header.name(0) == "LastName";
  columns.id = columns.split_names ? 2 : 1;
  columns.sis_user_id = header.find("SIS User ID");
  columns.sis_login_id = header.find("SIS Login ID");
  columns.section = *header.find("Section");
  for (std::size_t i = columns.section + 1; i < header.size(); ++i) {
    if (auto column = assignment_column(header.name(i))) {
      roster.canvas_assignments.push_back(std::move(*column));
      columns.assignments.push_back(i);
    }
  }
  return columns;
}

RosterStudent student_of(const CsvRow& row, const CanvasColumns& columns, const Roster& roster) {
  RosterStudent student;
  student.line = row.line;
  student.name = columns.split_names ? fmt::format("{}, {}", row.at(0), row.at(1)) : row.at(0);
  student.id = row.at(columns.id);
  if (student.id.empty()) {
    roster_error(roster, row.line, "a student with no ID (the Canvas user ID column)");
  }
  if (!all_digits(student.id)) {
    roster_error(roster, row.line,
                 fmt::format("ID '{}' is not a Canvas user ID (digits only)", student.id));
  }
  if (columns.sis_user_id) student.sis_user_id = row.at(*columns.sis_user_id);
  if (columns.sis_login_id) student.sis_login_id = row.at(*columns.sis_login_id);
  student.section = row.at(columns.section);
  return student;
}

}  // namespace

bool is_canvas_header(const Header& header) {
  if (header.size() < 3) return false;
  const bool by_student =
      header.name(0).find("Student") != std::string::npos && header.name(1) == "ID";
  const bool by_names =
      header.name(0) == "LastName" && header.name(1) == "FirstName" && header.name(2) == "ID";
  return (by_student || by_names) && header.find("Section").has_value();
}

void read_canvas(const Header& header, const std::vector<CsvRow>& rows, Roster& roster) {
  const CanvasColumns columns = columns_of(header, roster);
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const CsvRow& row = rows[r];
    if (row.at(0).find("Points Possible") != std::string::npos) {
      for (std::size_t a = 0; a < columns.assignments.size(); ++a) {
        roster.canvas_assignments[a].points_possible = number_of(row.at(columns.assignments[a]));
      }
      continue;
    }
    if (is_posting_row(row)) continue;
    roster.students.push_back(student_of(row, columns, roster));
  }
}

}  // namespace lms
