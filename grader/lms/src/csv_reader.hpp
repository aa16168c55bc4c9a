// Reading the CSV files instructors download from their LMS: RFC 4180 as spreadsheets write it,
// a byte-order mark, CRLF, LF or CR line ends, fields separated by commas, or by semicolons where
// the header line has more of those (a spreadsheet set to a decimal comma saves it so).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lms {

struct CsvRow {
  std::size_t line = 0;  // where the row starts (a quoted field may hold line breaks)
  std::vector<std::string> fields;

  // The field at `column`, trimmed of spaces; empty when the row is shorter.
  std::string at(std::size_t column) const;
  bool blank() const;  // no field holds anything but spaces
};

// Every row, blank lines left out. Throws RosterError "<file>:<line>: ..." for a quoted field that
// is never closed or text right after a closing quote.
std::vector<CsvRow> read_csv(std::string_view text, const std::string& file);

// `text` without spaces and tabs at either end.
std::string trimmed(std::string_view text);

}  // namespace lms
