// What the roster's readers share: the header's columns, small text tests, errors with the line.
#include <cstdlib>

#include <fmt/format.h>

#include "exports/text.hpp"
#include "roster_formats.hpp"

namespace lms {

Header::Header(const CsvRow& row) {
  for (std::size_t i = 0; i < row.fields.size(); ++i) names_.push_back(row.at(i));
}

std::optional<std::size_t> Header::find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return i;
  }
  return std::nullopt;
}

std::optional<std::size_t> Header::find_folded(std::string_view name) const {
  const std::string wanted = lower_ascii(name);
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (lower_ascii(names_[i]) == wanted) return i;
  }
  return std::nullopt;
}

std::string lower_ascii(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::optional<double> number_of(std::string_view text) {
  std::string number = trimmed(text);
  if (number.empty() || number.size() > 32) return std::nullopt;
  for (char& c : number) {
    if (c == ',') c = '.';
  }
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  return value;
}

void roster_error(const Roster& roster, std::size_t line, std::string_view what) {
  // What is quoted comes from the file (names are the students' own): one clean line.
  throw RosterError(
      exports::text::clean(fmt::format("{}:{}: {}", roster.file.string(), line, what), false));
}

}  // namespace lms
