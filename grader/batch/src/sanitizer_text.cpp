#include "batch/sanitizer_text.hpp"

#include <charconv>
#include <limits>

namespace batch::sanitizer_text {

std::string capped(std::string_view text) {
  if (text.size() <= kMaxText) return std::string(text);
  return std::string(text.substr(0, kMaxText)) + "...";
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// What follows the first `marker` in `text`; nothing when there is none.
std::optional<std::string_view> after(std::string_view text, std::string_view marker) {
  const auto at = text.find(marker);
  if (at == std::string_view::npos) return std::nullopt;
  return text.substr(at + marker.size());
}

// "0x7f4f52a00204 is out of bounds" -> 0x7f4f52a00204.
std::optional<std::uint64_t> hex_number(std::string_view text) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  text.remove_prefix(2);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

// "8,867,934,240 bytes" -> 8867934240 (the sanitizer groups digits with commas).
std::optional<std::uint64_t> count_number(std::string_view text) {
  std::uint64_t value = 0;
  bool any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == ',' && any && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9') {
      continue;
    }
    if (c < '0' || c > '9') break;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
    any = true;
  }
  if (!any) return std::nullopt;
  return value;
}

// A source line number: digits only, and a sane size.
int line_number(std::string_view digits) {
  if (digits.empty() || digits.size() > 9) return 0;
  int line = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return 0;
    line = line * 10 + (c - '0');
  }
  return line;
}

std::string_view file_name_only(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace batch::sanitizer_text
