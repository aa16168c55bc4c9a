#include "format.hpp"

#include "common/numbers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "contract/grade.hpp"
#include "reports/ceiling.hpp"
#include "reports/html.hpp"

namespace reports::detail {
namespace {

// Drops trailing zeros (and a trailing point) from fixed-point text: "2.50" -> "2.5".
std::string trim_zeros(std::string text) {
  if (text.find('.') == std::string::npos) return text;
  while (!text.empty() && text.back() == '0') text.pop_back();
  if (!text.empty() && text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

}  // namespace

std::string format_points(double points) { return contract::format_points(points); }

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value)) return "n/a";
  if (value == 0) return "0";
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
  const int decimals = std::clamp(digits - 1 - magnitude, 0, 9);
  return trim_zeros(fmt::format("{:.{}f}", value, decimals));
}

std::string format_count(long long count) { return common::grouped(count); }

std::string format_percent(double share) {
  if (!std::isfinite(share)) return "n/a";
  const double percent = share * 100.0;
  // Whole numbers from 10% up; small shares keep two significant digits so 0.0046% is not "0%".
  if (std::abs(percent) >= 10) return fmt::format("{:.0f}%", percent);
  return format_significant(percent, 2) + "%";
}

std::string format_ratio(double ratio) {
  if (!std::isfinite(ratio)) return "n/a";
  // Small ratios (lab 3's kernels run at 0.009x naive) keep two significant digits.
  if (std::abs(ratio) < 0.1 && ratio != 0) return format_significant(ratio, 2) + "\u00d7";
  return fmt::format("{:.2f}\u00d7", ratio);
}

std::string_view verdict_label(contract::Verdict verdict) {
  return contract::verdict_words(verdict);
}

std::string_view verdict_css_class(contract::Verdict verdict) {
  switch (verdict) {
    case contract::Verdict::pass:
      return "pass";
    case contract::Verdict::fail:
      return "fail";
    case contract::Verdict::error:
      return "error";
    case contract::Verdict::skipped:
      return "skipped";
    case contract::Verdict::inconclusive:
      return "inconclusive";
    case contract::Verdict::not_measured:
      return "not-measured";
    case contract::Verdict::not_run:
      return "not-run";
    case contract::Verdict::not_attempted:
      return "not-attempted";
    case contract::Verdict::implausible:
      return "implausible";
  }
  return "unknown";
}

std::string verdict_badge(contract::Verdict verdict) {
  // Symbols as character references keep the sources ASCII; aria-hidden because the words follow.
  std::string_view symbol;
  switch (verdict) {
    case contract::Verdict::pass:
      symbol = "&#10003;";  // check mark
      break;
    case contract::Verdict::fail:
      symbol = "&#10007;";  // ballot x
      break;
    case contract::Verdict::implausible:
      symbol = "&#9888;";  // warning sign: a failure of another kind than a wrong answer
      break;
    case contract::Verdict::error:
      symbol = "!";
      break;
    case contract::Verdict::inconclusive:
      symbol = "?";
      break;
    case contract::Verdict::skipped:
    case contract::Verdict::not_measured:
    case contract::Verdict::not_attempted:
      symbol = "&#8211;";  // en dash
      break;
    case contract::Verdict::not_run:
      symbol = "&#9675;";  // white circle
      break;
  }
  return fmt::format(
      R"(<span class="verdict verdict-{}"><span class="verdict-symbol" aria-hidden="true">{}</span> {}</span>)",
      verdict_css_class(verdict), symbol, verdict_label(verdict));
}

std::string implausible_line(contract::Verdict verdict, const contract::CheckRecord* record,
                             std::string_view tag) {
  if (verdict != contract::Verdict::implausible) return {};
  // A record without a timing still gets the line: the verdict alone says the figure was beyond
  // the hardware.
  const std::string words =
      record && record->timing
          ? implausible_words(*record->timing)
          : std::string("implausible: the speed measured is more than this GPU can do");
  return fmt::format(
      R"(<{tag} class="implausible-line">{words}. No kernel is faster than the hardware: this )"
      R"(figure earns no points and is never ranked.</{tag}>)",
      fmt::arg("tag", tag), fmt::arg("words", html_escape(words)));
}

std::string text_or_not_recorded(std::string_view text) {
  if (text.empty()) return R"(<span class="muted">not recorded</span>)";
  return html_escape(text);
}

bool needs_attention(contract::Verdict verdict) {
  return verdict != contract::Verdict::pass && verdict != contract::Verdict::skipped;
}

}  // namespace reports::detail
