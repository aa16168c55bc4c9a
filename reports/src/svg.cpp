#include "reports/svg.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/utf8.hpp"
#include "reports/html.hpp"

namespace reports::svg {

std::string px(double value) { return fmt::format("{:.1f}", value); }

std::string open_tag(std::string_view css_class, std::string_view width, std::string_view height,
                     std::string_view label) {
  return fmt::format(
      R"(<svg class="{c}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{l}">)",
      fmt::arg("c", css_class), fmt::arg("w", width), fmt::arg("h", height), fmt::arg("l", label));
}

std::string open_figure(std::string_view css_class, double width, double height,
                        std::string_view description) {
  return fmt::format("{}\n<title>{}</title>\n",
                     open_tag(css_class, px(width), px(height), description), description);
}

std::string text(double x, double y, std::string_view css_class, std::string_view content,
                 std::string_view anchor) {
  if (anchor.empty()) {
    return fmt::format(R"(<text x="{}" y="{}" class="{}">{}</text>)", px(x), px(y), css_class,
                       content);
  }
  return fmt::format(R"(<text x="{}" y="{}" class="{}" text-anchor="{}">{}</text>)", px(x), px(y),
                     css_class, anchor, content);
}

std::string line(double x1, double y1, double x2, double y2, std::string_view css_class) {
  return fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" class="{}"/>)", px(x1), px(y1),
                     px(x2), px(y2), css_class);
}

std::string rect(double x, double y, double width, double height, std::string_view css_class) {
  return fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" class="{}"/>)", px(x), px(y),
                     px(width), px(height), css_class);
}

std::string vertical_title(int x, double y, std::string_view title) {
  return fmt::format(
      R"svg(<text x="{x}" y="{y}" class="chart-axis" text-anchor="middle" transform="rotate(-90 {x} {y})">{t}</text>)svg",
      fmt::arg("x", x), fmt::arg("y", px(y)), fmt::arg("t", title));
}

std::string vertical_tick(double x, double top, double bottom, double label_y,
                          std::string_view label, std::string_view line_class) {
  return line(x, top, x, bottom, line_class) + text(x, label_y, "chart-small", label, "middle") +
         '\n';
}

std::string horizontal_tick(double y, double left, double right, double label_x, double label_y,
                            std::string_view label) {
  return line(left, y, right, y, "grid-line") +
         text(label_x, label_y, "chart-small", label, "end") + '\n';
}

double LogAxis::at(double value) const {
  const double v = std::clamp(value, low, high);
  const double share = (std::log10(v) - std::log10(low)) / (std::log10(high) - std::log10(low));
  return from_px + share * (to_px - from_px);
}

std::pair<double, double> decades(double low, double high) {
  return {std::pow(10.0, std::floor(std::log10(low))), std::pow(10.0, std::ceil(std::log10(high)))};
}

std::string decade_label(double value) {
  if (value >= 1000) return fmt::format("{:.0f}k", value / 1000);
  if (value >= 1) return fmt::format("{:.0f}", value);
  return fmt::format("{:g}", value);
}

std::string label_within_chars(std::string_view text, std::size_t max_chars) {
  const std::size_t kept = common::utf8::bytes_of_first(text, max_chars);
  if (kept == text.size()) return html_escape(text);
  return html_escape(text.substr(0, kept)) + "&#8230;";
}

std::string label_within_bytes(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return html_escape(text);
  return html_escape(text.substr(0, common::utf8::boundary_at_most(text, max_bytes))) + "&#8230;";
}

namespace {

// The label's words in lines of at most `max_chars` code points, unescaped, none dropped.
std::vector<std::string> break_into_lines(std::string_view text, std::size_t max_chars) {
  using common::utf8::code_points;
  std::vector<std::string> lines;
  std::string line;
  const auto flush = [&] {
    if (!line.empty()) lines.push_back(std::move(line));
    line.clear();
  };
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = std::min(text.find(' ', at), text.size());
    std::string_view word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    while (code_points(word) > max_chars) {  // a word too long for any line: cut it
      flush();
      const std::size_t cut = common::utf8::bytes_of_first(word, max_chars);
      lines.emplace_back(word.substr(0, cut));
      word.remove_prefix(cut);
    }
    if (!line.empty() && code_points(line) + 1 + code_points(word) > max_chars) flush();
    if (!line.empty()) line += ' ';
    line += word;
  }
  flush();
  if (lines.empty()) lines.emplace_back();
  return lines;
}

}  // namespace

// SVG text does not wrap by itself, and a check title cut after 30 characters ("... is faster
// than th...") says nothing: hence lines.
std::vector<std::string> wrapped_label(std::string_view text, std::size_t max_chars,
                                       std::size_t max_lines) {
  std::vector<std::string> lines = break_into_lines(text, max_chars);
  const bool cut = lines.size() > max_lines;
  if (cut) lines.resize(max_lines);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!cut || i + 1 < lines.size()) {
      lines[i] = html_escape(lines[i]);
    } else if (common::utf8::code_points(lines[i]) < max_chars) {
      lines[i] = html_escape(lines[i]) + "&#8230;";
    } else {
      lines[i] = label_within_chars(lines[i], max_chars - 1);  // ends in the ellipsis
    }
  }
  return lines;
}

}  // namespace reports::svg
