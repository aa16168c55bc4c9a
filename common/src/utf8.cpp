#include "common/utf8.hpp"

namespace common::utf8 {

std::size_t decode(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t value = 0;
  char32_t min_value = 0;
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, value = lead & 0x1F, min_value = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, value = lead & 0x0F, min_value = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, value = lead & 0x07, min_value = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(i + k) & 0x3F);
  }
  if (value < min_value || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
  code_point = value;
  return length;
}

std::optional<std::size_t> first_invalid(std::string_view text) {
  char32_t ignored = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = decode(text, i, ignored);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

std::string make_valid(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char32_t ignored = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = decode(text, i, ignored);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD, one per bad byte, so each lost byte stays visible
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

std::size_t code_points(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += starts_code_point(c) ? 1 : 0;
  return count;
}

std::size_t boundary_at_most(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  std::size_t cut = max_bytes;
  while (cut > 0 && !starts_code_point(text[cut])) --cut;
  return cut;
}

std::size_t bytes_of_first(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (starts_code_point(text[i]) && chars++ == max_chars) return i;
  }
  return text.size();
}

}  // namespace common::utf8
