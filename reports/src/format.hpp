// How numbers and verdicts read in a report. Every function returns text that needs no escaping
// (digits, units and fixed words), except where a comment says it returns HTML.
#pragma once

#include <string>
#include <string_view>

#include "contract/record.hpp"

namespace reports::detail {

// Points with at most two decimals and no trailing zeros: 3, 2.5, 3.33.
std::string format_points(double points);

// A measurement with `digits` significant digits but never in exponent notation: 0.0123, 12.3,
// 1235. Non-finite values read "n/a".
std::string format_significant(double value, int digits = 3);

// A count with thousands separators: 262,144.
std::string format_count(long long count);

// A share (0..1) as a percentage with sensible precision: 100%, 12.5%, 0.0046%, 0%.
std::string format_percent(double share);

// A ratio such as rate / reference rate: "0.91×".
std::string format_ratio(double ratio);

// Words for a verdict, e.g. "not measured".
std::string_view verdict_label(contract::Verdict verdict);

// The CSS class suffix for a verdict, e.g. "not-measured" (verdict-not-measured).
std::string_view verdict_css_class(contract::Verdict verdict);

// HTML: a badge with a symbol and the verdict's words, so colour is never the only signal.
std::string verdict_badge(contract::Verdict verdict);

// HTML: for an implausible verdict, the red line that says why in figures ("implausible: measured
// 90.1 TFLOP/s, beyond this GPU's FP32 peak (...) of 66.9 TFLOP/s"), escaped, inside an element
// `tag` ("span" in a table cell, "p" in a check's details); empty for every other verdict.
std::string implausible_line(contract::Verdict verdict, const contract::CheckRecord* record,
                             std::string_view tag);

// HTML: the escaped text, or a muted "not recorded" when it is empty.
std::string text_or_not_recorded(std::string_view text);

// True for verdicts a student has to act on; their details start open.
bool needs_attention(contract::Verdict verdict);

}  // namespace reports::detail
