// The roster's formats, one reader each (roster_canvas.cpp, roster_moodle.cpp, roster_plain.cpp),
// and what they share: columns found by their header, and errors that name the file and line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "csv_reader.hpp"
#include "lms/roster.hpp"

namespace lms {

// The header row's column names, trimmed.
class Header {
 public:
  explicit Header(const CsvRow& row);
  std::optional<std::size_t> find(std::string_view name) const;         // exact
  std::optional<std::size_t> find_folded(std::string_view name) const;  // ASCII case folded
  std::size_t size() const { return names_.size(); }
  const std::string& name(std::size_t column) const { return names_[column]; }

 private:
  std::vector<std::string> names_;
};

std::string lower_ascii(std::string_view text);
bool all_digits(std::string_view text);

// A decimal number as a spreadsheet may write it ("100.00", "100,00"); nullopt when it is none.
std::optional<double> number_of(std::string_view text);

// Throws RosterError "<file>:<line>: <what>".
[[noreturn]] void roster_error(const Roster& roster, std::size_t line, std::string_view what);

// Each reader fills roster.students (and what else its format holds) from the rows after the
// header; each `is_*` tells its format's header.
bool is_canvas_header(const Header& header);
void read_canvas(const Header& header, const std::vector<CsvRow>& rows, Roster& roster);

bool is_moodle_worksheet_header(const Header& header);
void read_moodle_worksheet(const Header& header, const std::vector<CsvRow>& rows, Roster& roster);
bool is_moodle_grades_header(const Header& header);
void read_moodle_grades(const Header& header, const std::vector<CsvRow>& rows, Roster& roster);

// A plain roster's header; throws for an unknown column or a missing name or id column.
bool looks_plain(const Header& header);
void read_plain(const Header& header, const std::vector<CsvRow>& rows, Roster& roster);

}  // namespace lms
