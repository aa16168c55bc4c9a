// The small text readers compute-sanitizer's report needs (batch/sanitizer_report.hpp): the
// parser reads numbers, places and names with them, and the wording of a finding its sizes. None
// throws: the text is the sanitizer's mixed with whatever the student's kernels printed.
#pragma once

#include "common/numbers.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace batch::sanitizer_text {

// A line a student's kernel printed can be any length; no text of a finding is longer than this.
inline constexpr std::size_t kMaxText = 200;

// `text`, cut to kMaxText characters and "..." when longer.
std::string capped(std::string_view text);

bool is_space(char c);  // a space, a tab or a carriage return
std::string_view trimmed(std::string_view text);
bool contains(std::string_view text, std::string_view part);

// What follows the first `marker` in `text`; nothing when there is none.
std::optional<std::string_view> after(std::string_view text, std::string_view marker);

// "0x7f4f52a00204 is out of bounds" -> 0x7f4f52a00204.
std::optional<std::uint64_t> hex_number(std::string_view text);

// "8,867,934,240 bytes" -> 8867934240 (the sanitizer groups digits with commas).
std::optional<std::uint64_t> count_number(std::string_view text);

// A source line number: digits only, and a sane size; 0 otherwise.
int line_number(std::string_view digits);

// "/dir/kernel.cu" -> "kernel.cu".
std::string_view file_name_only(std::string_view path);

// 1234567 -> "1,234,567" (one home: common/numbers.hpp).
using common::grouped;

}  // namespace batch::sanitizer_text
