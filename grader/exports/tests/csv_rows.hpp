// A strict RFC 4180 reader for the CSV exports' tests: records end in CRLF, fields are plain or
// quoted with "" for a quote; anything else throws, so a test sees a malformed file.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace exports::testing {

// RFC 4180 reader: records end in CRLF, fields are plain or quoted with "" for a quote.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  std::size_t i = 0;
  while (i < csv.size()) {
    if (csv[i] == '"') {
      ++i;
      for (;;) {
        if (i >= csv.size()) throw std::runtime_error("unterminated quote");
        if (csv[i] == '"') {
          if (i + 1 < csv.size() && csv[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += csv[i++];
      }
    }
    while (i < csv.size() && csv[i] != ',' && csv[i] != '\r') {
      if (csv[i] == '"' || csv[i] == '\n') throw std::runtime_error("stray quote or line feed");
      field += csv[i++];
    }
    if (i >= csv.size()) throw std::runtime_error("last record has no CRLF");
    row.push_back(std::move(field));
    field.clear();
    if (csv[i] == ',') {
      ++i;
      continue;
    }
    if (csv.compare(i, 2, "\r\n") != 0) throw std::runtime_error("CR without LF");
    i += 2;
    rows.push_back(std::move(row));
    row.clear();
  }
  return rows;
}

}  // namespace exports::testing
