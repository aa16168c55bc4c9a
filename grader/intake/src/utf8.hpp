// UTF-8 checks for untrusted bytes: names from the file system and kernel files.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace intake::utf8 {

// Decodes the code point starting at `i`; returns its length in bytes, or 0 when the bytes there
// are not valid UTF-8 (overlong forms, surrogates, values above U+10FFFF and cut-short sequences
// included).
std::size_t decode(std::string_view text, std::size_t i, char32_t& code_point);

// The offset of the first byte that does not start a valid sequence; nullopt for valid UTF-8.
std::optional<std::size_t> first_invalid(std::string_view text);

// `text` with every byte that is not part of a valid sequence replaced by U+FFFD.
std::string make_valid(std::string_view text);

}  // namespace intake::utf8
