#include "lms_assignment.hpp"

#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "exports/text.hpp"

namespace batch {
namespace {

// Letters and digits only, ASCII lowercased: "Lab 6: Tiled matmul" -> "lab6tiledmatmul".
std::string squeezed(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return out;
}

// "Lab 6", "lab6 - tiled" name lab6; "Lab 60" does not.
bool names_lab(std::string_view title, const std::string& lab) {
  const std::string text = squeezed(title);
  const std::string wanted = squeezed(lab);
  for (auto at = text.find(wanted); at != std::string::npos; at = text.find(wanted, at + 1)) {
    const std::size_t end = at + wanted.size();
    if (end == text.size() || !std::isdigit(static_cast<unsigned char>(text[end]))) return true;
  }
  return false;
}

std::string columns_list(const lms::Roster& roster) {
  std::string list;
  for (const auto& column : roster.canvas_assignments) {
    list += (list.empty() ? "" : ", ") + column.header();
  }
  return list.empty() ? "none" : exports::text::clean(list, false);
}

exports::CanvasTarget target_of(const lms::CanvasColumn& column) {
  return {column.header(), column.points_possible};
}

}  // namespace

bool has_assignment_id(const std::string& text) {
  const auto open = text.rfind(" (");
  if (open == std::string::npos || !text.ends_with(')')) return false;
  const std::string id = text.substr(open + 2, text.size() - open - 3);
  return !id.empty() && id.find_first_not_of("0123456789") == std::string::npos;
}

exports::CanvasTarget canvas_column(const lms::Roster& roster, const std::string& option,
                                    const std::string& lab) {
  const auto& columns = roster.canvas_assignments;
  if (!option.empty()) {
    for (const auto& column : columns) {
      if (column.header() == option || column.id == option ||
          squeezed(column.title) == squeezed(option)) {
        return target_of(column);
      }
    }
    if (has_assignment_id(option)) return {option, std::nullopt};
    throw lms::RosterError(fmt::format(
        "{}: no assignment column is '{}' (its assignment columns: {}): give --lms-assignment as "
        "one of them, or as 'Title (assignment id)'",
        roster.file.string(), exports::text::clean(option, false), columns_list(roster)));
  }
  std::vector<const lms::CanvasColumn*> naming;
  for (const auto& column : columns) {
    if (names_lab(column.title, lab)) naming.push_back(&column);
  }
  if (naming.size() == 1) return target_of(*naming.front());
  if (naming.empty() && columns.size() == 1) return target_of(columns.front());
  throw lms::RosterError(fmt::format(
      "{}: cannot tell which assignment column is {} (its assignment columns: {}): name it with "
      "--lms-assignment",
      roster.file.string(), lab, columns_list(roster)));
}

}  // namespace batch
