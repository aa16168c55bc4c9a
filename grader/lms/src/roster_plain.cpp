// A plain roster: a CSV written by hand or by a script, columns in any order and any case.
//   name,id,email,sis_user_id,sis_login_id,section
// name and id are required; id is what the submissions' names carry (a Canvas user ID, a Moodle
// participant number) or the name of the student's folder or file. Any other column is refused,
// so that a misspelt one is not silently ignored.
#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "roster_formats.hpp"

namespace lms {
namespace {

constexpr std::array<std::string_view, 6> kPlainColumns = {
    "name", "id", "email", "sis_user_id", "sis_login_id", "section"};

constexpr std::string_view kPlainHelp =
    "a plain roster has the columns name and id, and optionally email, sis_user_id, "
    "sis_login_id and section";

}  // namespace

bool looks_plain(const Header& header) {
  return header.find_folded("name") || header.find_folded("id");
}

void read_plain(const Header& header, const std::vector<CsvRow>& rows, Roster& roster) {
  const std::size_t line = rows.front().line;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string column = lower_ascii(header.name(i));
    if (std::find(kPlainColumns.begin(), kPlainColumns.end(), column) == kPlainColumns.end()) {
      roster_error(roster, line,
                   fmt::format("unknown column '{}': {}", header.name(i), kPlainHelp));
    }
  }
  const auto name = header.find_folded("name");
  const auto id = header.find_folded("id");
  if (!name || !id)
    roster_error(roster, line, fmt::format("no {} column: {}", name ? "id" : "name", kPlainHelp));
  const auto optional = [&](std::string_view column, const CsvRow& row) {
    const auto at = header.find_folded(column);
    return at ? row.at(*at) : std::string();
  };
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const CsvRow& row = rows[r];
    RosterStudent student;
    student.line = row.line;
    student.name = row.at(*name);
    student.id = row.at(*id);
    if (student.name.empty()) roster_error(roster, row.line, "a student with no name");
    if (student.id.empty()) roster_error(roster, row.line, "a student with no id");
    student.email = optional("email", row);
    student.sis_user_id = optional("sis_user_id", row);
    student.sis_login_id = optional("sis_login_id", row);
    student.section = optional("section", row);
    roster.students.push_back(std::move(student));
  }
}

}  // namespace lms
