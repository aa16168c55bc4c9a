#include "exports/text.hpp"

#include <fmt/format.h>

#include "common/utf8.hpp"
#include "reports/html.hpp"

namespace exports::text {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of a terminal escape sequence starting with ESC at `i` (at least 1: the ESC itself).
std::size_t escape_length(std::string_view text, std::size_t i) {
  std::size_t k = i + 1;
  if (k < text.size() && text[k] == '[') {  // CSI: parameters, intermediates, one final byte
    ++k;
    while (k < text.size() && text[k] >= 0x20 && text[k] <= 0x3F) ++k;
    if (k < text.size() && text[k] >= 0x40 && text[k] <= 0x7E) ++k;
    return k - i;
  }
  if (k < text.size() && text[k] == ']') {  // OSC: up to BEL or ESC backslash
    ++k;
    while (k < text.size() && text[k] != '\a' && text[k] != '\x1b') ++k;
    if (k < text.size() && text[k] == '\a') return k + 1 - i;
    if (k + 1 < text.size() && text[k + 1] == '\\') return k + 2 - i;
    return k - i;
  }
  return 1;
}

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

}  // namespace

std::string clean(std::string_view text, bool multi_line) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t length = common::utf8::decode(text, i, cp);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (cp == 0x1B) {
      i += escape_length(text, i);
      continue;
    }
    if (cp == '\r') {
      out += multi_line ? '\n' : ' ';
      i += (i + 1 < text.size() && text[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (cp == '\n' || cp == '\t') {
      out += multi_line ? static_cast<char>(cp) : ' ';
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0xFFFE || cp == 0xFFFF) {
      // dropped: control characters and XML's non-characters
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::string truncate(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const std::size_t cut = common::utf8::boundary_at_most(text, max_bytes);
  return fmt::format("{}\u2026 [{} more bytes not shown]", text.substr(0, cut), text.size() - cut);
}

std::string csv_field(std::string_view text) {
  std::string value = clean(text);
  if (!value.empty() && (value[0] == '=' || value[0] == '+' || value[0] == '-' || value[0] == '@' ||
                         value[0] == '\t')) {
    value.insert(value.begin(), '\'');
  }
  if (value.find_first_of(",\"\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (const char c : value) {
    if (c == '"') quoted += '"';
    // RFC 4180 separates records with CRLF; a line break inside a field is written the same way.
    if (c == '\n') {
      quoted += "\r\n";
      continue;
    }
    quoted += c;
  }
  quoted += '"';
  return quoted;
}

std::string xml_escape(std::string_view text, bool attribute) {
  return reports::escape(clean(text),
                         attribute ? reports::Markup::xml_attribute : reports::Markup::xml_text);
}

std::optional<std::string> safe_href(std::string_view path) {
  if (path.empty() || path.starts_with("//") || path.starts_with('\\')) return std::nullopt;
  for (const char c : path) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return std::nullopt;
  }
  // A scheme is letters, digits, + - . before the first colon, and nothing of a path before it.
  if (const auto colon = path.find(':'); colon != std::string_view::npos) {
    if (path.substr(0, colon).find_first_of("/?#\\") == std::string_view::npos) {
      return std::nullopt;
    }
  }
  std::string out;
  for (const char c : path) {
    const auto byte = static_cast<unsigned char>(c);
    if (is_unreserved(byte) || c == '/') {
      out += c;
    } else {
      out += fmt::format("%{:02X}", byte);
    }
  }
  return out;
}

}  // namespace exports::text
