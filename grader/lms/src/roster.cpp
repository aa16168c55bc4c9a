// read_roster: the file read whole, checked for UTF-8, its kind told by its header, then read by
// that kind's reader, and every id checked to be one student's.
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "common/utf8.hpp"
#include "roster_formats.hpp"

namespace fs = std::filesystem;

namespace lms {
namespace {

// A class list of thousands is a few hundred KiB; this is plenty and bounds what is read.
constexpr std::uintmax_t kMaxRosterBytes = 16u << 20;

std::string read_file(const fs::path& file) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  if (error)
    throw RosterError(
        fmt::format("{}: cannot read the roster: {}", file.string(), error.message()));
  if (size > kMaxRosterBytes) {
    throw RosterError(fmt::format("{}: {} bytes is too large for a roster", file.string(), size));
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw RosterError(fmt::format("{}: cannot read the roster", file.string()));
  return std::move(text).str();
}

std::size_t line_of(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
    }
  }
  return line;
}

std::string header_start(const Header& header) {
  std::string start;
  for (std::size_t i = 0; i < header.size() && i < 4; ++i) {
    start += (i ? ", " : "") + header.name(i);
  }
  return common::utf8::make_valid(start.substr(0, common::utf8::boundary_at_most(start, 120)));
}

void read_by_kind(const Header& header, const std::vector<CsvRow>& rows, Roster& roster) {
  if (is_canvas_header(header)) {
    roster.kind = RosterKind::canvas;
    read_canvas(header, rows, roster);
  } else if (is_moodle_worksheet_header(header)) {
    roster.kind = RosterKind::moodle_worksheet;
    read_moodle_worksheet(header, rows, roster);
  } else if (is_moodle_grades_header(header)) {
    roster.kind = RosterKind::moodle_grades;
    read_moodle_grades(header, rows, roster);
  } else if (looks_plain(header)) {
    roster.kind = RosterKind::plain;
    read_plain(header, rows, roster);
  } else {
    roster_error(roster, rows.front().line,
                 fmt::format("not a roster: its header ({}) is none of a Canvas gradebook export's "
                             "(Student, ID, ..., Section), a Moodle grading worksheet's "
                             "(Identifier, Full name, ...), a Moodle grades export's (First name, "
                             "Last name, Email address, ...) or a plain roster's (name, id)",
                             header_start(header)));
  }
}

void check_ids_unique(const Roster& roster) {
  std::map<std::string, std::size_t> line_of_id;
  for (const RosterStudent& student : roster.students) {
    if (student.id.empty()) continue;
    const auto [at, added] = line_of_id.emplace(student.id, student.line);
    if (!added) {
      roster_error(roster, student.line,
                   fmt::format("id {} is also on line {}: two students cannot share an id",
                               student.id, at->second));
    }
  }
}

}  // namespace

std::string_view kind_words(RosterKind kind) {
  switch (kind) {
    case RosterKind::plain:
      return "a plain roster";
    case RosterKind::canvas:
      return "a Canvas gradebook export";
    case RosterKind::moodle_worksheet:
      return "a Moodle grading worksheet";
    case RosterKind::moodle_grades:
      return "a Moodle grades export";
  }
  return "a roster";
}

std::string CanvasColumn::header() const { return fmt::format("{} ({})", title, id); }

Roster parse_roster(std::string_view text, const fs::path& file) {
  Roster roster;
  roster.file = file;
  if (const auto bad = common::utf8::first_invalid(text)) {
    roster_error(roster, line_of(text, *bad),
                 "not UTF-8 text: save the roster as \"CSV UTF-8\" (a spreadsheet's other CSV "
                 "encodings garble accented names)");
  }
  const std::vector<CsvRow> rows = read_csv(text, file.string());
  if (rows.empty()) throw RosterError(fmt::format("{}: the roster is empty", file.string()));
  const Header header(rows.front());
  read_by_kind(header, rows, roster);
  if (roster.students.empty()) {
    throw RosterError(
        fmt::format("{}: {} with no students", file.string(), kind_words(roster.kind)));
  }
  check_ids_unique(roster);
  return roster;
}

Roster read_roster(const fs::path& file) { return parse_roster(read_file(file), file); }

}  // namespace lms
