// UTF-8 for untrusted bytes: names from the file system, kernel files, compiler messages and check
// titles drawn in a chart. One decoder, so every library agrees on what is valid.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace common::utf8 {

// Decodes the code point starting at `i`; returns its length in bytes, or 0 when the bytes there
// are not valid UTF-8 (overlong forms, surrogates, values above U+10FFFF and cut-short sequences
// included).
std::size_t decode(std::string_view text, std::size_t i, char32_t& code_point);

// The offset of the first byte that does not start a valid sequence; nullopt for valid UTF-8.
std::optional<std::size_t> first_invalid(std::string_view text);

// `text` with every byte that is not part of a valid sequence replaced by U+FFFD.
std::string make_valid(std::string_view text);

// True for a byte that begins a code point (any byte but a continuation byte 10xxxxxx).
constexpr bool starts_code_point(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0) != 0x80;
}

// The number of code points (bytes that begin one) in `text`.
std::size_t code_points(std::string_view text);

// The largest length of at most `max_bytes` that does not cut a code point in two.
std::size_t boundary_at_most(std::string_view text, std::size_t max_bytes);

// The byte length of the first `max_chars` code points of `text` (all of it when it has fewer).
std::size_t bytes_of_first(std::string_view text, std::size_t max_chars);

}  // namespace common::utf8
