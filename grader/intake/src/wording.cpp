#include "wording.hpp"

#include <fmt/format.h>

#include "common/utf8.hpp"

namespace intake::wording {

std::string bytes(std::uint64_t count) {
  constexpr std::uint64_t kKiB = 1024;
  constexpr std::uint64_t kMiB = kKiB * 1024;
  constexpr std::uint64_t kGiB = kMiB * 1024;
  const auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); };
  if (count >= kGiB) return fmt::format("{} GiB", ceil_div(count, kGiB));
  if (count >= kMiB) return fmt::format("{} MiB", ceil_div(count, kMiB));
  if (count >= kKiB) return fmt::format("{} KiB", ceil_div(count, kKiB));
  return fmt::format("{} {}", count, count == 1 ? "byte" : "bytes");
}

std::string one_line(std::string_view text, std::size_t max_bytes) {
  const std::string valid = common::utf8::make_valid(text);
  std::string out;
  char32_t code_point = 0;
  for (std::size_t i = 0; i < valid.size();) {
    const std::size_t length = common::utf8::decode(valid, i, code_point);
    if (out.size() + length > max_bytes) {
      out += "\u2026";
      break;
    }
    // A newline in an entry name must not split the gradebook line, nor a terminal escape
    // recolour the instructor's terminal.
    const bool control = code_point < 0x20 || (code_point >= 0x7F && code_point < 0xA0) ||
                         code_point == 0x2028 || code_point == 0x2029;
    if (control) {
      out += '?';
    } else {
      out.append(valid, i, length);
    }
    i += length;
  }
  return out;
}

std::string quoted(std::string_view name) {
  std::string out = "'";
  out += one_line(name, 100);
  out += '\'';
  return out;
}

}  // namespace intake::wording
