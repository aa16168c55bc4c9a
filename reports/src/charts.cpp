#include "charts.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "format.hpp"
#include "reports/html.hpp"

namespace reports::detail {
namespace {

struct Rgb {
  int r, g, b;
};

constexpr Rgb kCorrectCell{226, 232, 240};  // slate-200: calm, clearly not red
constexpr Rgb kFewWrong{254, 202, 202};     // red-200
constexpr Rgb kAllWrong{153, 27, 27};       // red-800

std::string hex(Rgb colour) {
  return fmt::format("#{:02x}{:02x}{:02x}", colour.r, colour.g, colour.b);
}

// Shade for a cell with some wrong elements. The square root spreads small shares apart: a cell
// with one wrong row out of 16 must still stand out from a correct one.
Rgb wrong_shade(double share) {
  const double t = std::sqrt(std::clamp(share, 0.0, 1.0));
  const auto mix = [t](int from, int to) {
    return static_cast<int>(std::lround(from + (to - from) * t));
  };
  return {mix(kFewWrong.r, kAllWrong.r), mix(kFewWrong.g, kAllWrong.g),
          mix(kFewWrong.b, kAllWrong.b)};
}

// Escaped text cut to `max_chars` code points (SVG text does not wrap), with an ellipsis when cut.
std::string short_label(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts_code_point = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts_code_point && chars++ == max_chars) {
      return html_escape(text.substr(0, i)) + "&#8230;";
    }
  }
  return html_escape(text);
}

std::size_t code_points(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// A label in lines of at most `max_chars` code points, broken between words (a word longer than a
// line is cut into pieces), each line escaped. More than `max_lines` lines: the last one ends in
// an ellipsis. SVG text does not wrap by itself, and a check title cut after 30 characters ("...
// is faster than th...") says nothing.
std::vector<std::string> wrapped_label(std::string_view text, std::size_t max_chars,
                                       std::size_t max_lines) {
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
      std::size_t cut = 0;
      for (std::size_t chars = 0; cut < word.size(); ++cut) {
        const bool starts = (static_cast<unsigned char>(word[cut]) & 0xC0) != 0x80;
        if (starts && chars++ == max_chars) break;
      }
      lines.emplace_back(word.substr(0, cut));
      word.remove_prefix(cut);
    }
    if (!line.empty() && code_points(line) + 1 + code_points(word) > max_chars) flush();
    if (!line.empty()) line += ' ';
    line += word;
  }
  flush();
  if (lines.empty()) lines.emplace_back();
  const bool cut = lines.size() > max_lines;
  if (cut) lines.resize(max_lines);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!cut || i + 1 < lines.size()) {
      lines[i] = html_escape(lines[i]);
    } else if (code_points(lines[i]) < max_chars) {
      lines[i] = html_escape(lines[i]) + "&#8230;";
    } else {
      lines[i] = short_label(lines[i], max_chars - 1);  // ends in the ellipsis
    }
  }
  return lines;
}

std::string px(double value) { return fmt::format("{:.1f}", value); }

// More cells than pixels helps nobody and would bloat the page (one element per wrong cell).
constexpr std::size_t kMaxCells = 256 * 256;

bool is_drawable(const contract::ErrorMap& map) {
  const auto cells =
      static_cast<std::size_t>(std::max(map.grid_rows, 0)) * std::max(map.grid_cols, 0);
  return map.rows > 0 && map.cols > 0 && map.cell_rows > 0 && map.cell_cols > 0 &&
         map.grid_rows > 0 && map.grid_cols > 0 && cells <= kMaxCells &&
         map.wrong_fraction.size() == cells;
}

// Plot size in pixels: the matrix's shape, at most kMaxSide on its long side, and never so thin
// that the axis labels collide.
struct PlotSize {
  double width, height;
};

PlotSize plot_size(const contract::ErrorMap& map) {
  constexpr double kMaxSide = 360;
  constexpr double kMinSide = 64;
  const double aspect = static_cast<double>(map.rows) / static_cast<double>(map.cols);
  if (aspect <= 1) return {kMaxSide, std::max(kMaxSide * aspect, kMinSide)};
  return {std::max(kMaxSide / aspect, kMinSide), kMaxSide};
}

std::string legend_swatch(double x, double y, Rgb colour, std::string_view text) {
  return fmt::format(
      R"(<rect x="{}" y="{}" width="12" height="12" fill="{}" stroke="#64748b" stroke-width="0.5"/>)"
      R"(<text x="{}" y="{}" class="chart-small">{}</text>)",
      px(x), px(y), hex(colour), px(x + 17), px(y + 10), text);
}

}  // namespace

std::string error_map_svg(const contract::ErrorMap& map) {
  if (!is_drawable(map)) {
    return R"(<p class="muted">This case's error map cannot be drawn: its sizes do not add up, )"
           R"(or it has more than 65,536 cells.</p>)";
  }
  constexpr double kLeft = 76;
  constexpr double kTop = 40;
  constexpr double kRight = 12;
  constexpr double kLegendHeight = 40;
  const auto [plot_w, plot_h] = plot_size(map);
  const double width = std::max(kLeft + plot_w + kRight, 400.0);
  const double height = kTop + plot_h + kLegendHeight;
  const double sx = plot_w / static_cast<double>(map.cols);  // pixels per element
  const double sy = plot_h / static_cast<double>(map.rows);

  std::string cells;
  int wrong_cells = 0;
  int all_wrong_cells = 0;
  for (int i = 0; i < map.grid_rows; ++i) {
    const long long row0 = i * map.cell_rows;
    if (row0 >= map.rows) break;
    const long long row1 = std::min(map.rows, row0 + map.cell_rows);
    // Neighbouring cells of one row with the same share become one rectangle: a matrix that is
    // wrong everywhere is then one rectangle per row, not thousands (reports stay small).
    for (int j = 0; j < map.grid_cols;) {
      const long long col0 = j * map.cell_cols;
      if (col0 >= map.cols) break;
      const double share = map.wrong_fraction[static_cast<std::size_t>(i) * map.grid_cols + j];
      int end = j + 1;
      while (end < map.grid_cols && end * map.cell_cols < map.cols &&
             map.wrong_fraction[static_cast<std::size_t>(i) * map.grid_cols + end] == share) {
        ++end;
      }
      const long long col1 = std::min(map.cols, end * map.cell_cols);
      const int run = end - j;
      j = end;
      if (!(share > 0)) continue;  // correct (or NaN): the background shows through
      wrong_cells += run;
      if (share >= 1) all_wrong_cells += run;
      cells += fmt::format(
          R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>rows {}&#8211;{}, columns {}&#8211;{}: {} wrong</title></rect>)",
          px(kLeft + col0 * sx), px(kTop + row0 * sy), px((col1 - col0) * sx),
          px((row1 - row0) * sy), hex(wrong_shade(share)), row0, row1 - 1, col0, col1 - 1,
          format_percent(share));
      cells += '\n';
    }
  }

  // Cell borders only where cells are big enough for them to help rather than grey everything out.
  std::string grid;
  const double cell_w = map.cell_cols * sx;
  const double cell_h = map.cell_rows * sy;
  if (cell_w >= 6 && cell_h >= 6) {
    std::string path;
    for (long long col = map.cell_cols; col < map.cols; col += map.cell_cols) {
      path += fmt::format("M{} {}V{}", px(kLeft + col * sx), px(kTop), px(kTop + plot_h));
    }
    for (long long row = map.cell_rows; row < map.rows; row += map.cell_rows) {
      path += fmt::format("M{} {}H{}", px(kLeft), px(kTop + row * sy), px(kLeft + plot_w));
    }
    if (!path.empty()) {
      grid = fmt::format(R"(<path d="{}" stroke="#ffffff" stroke-width="1" fill="none"/>)", path);
    }
  }

  // The launch's blocks (tiles) over the map, in a distinct colour, so a wrong tile or a wrong
  // border past the last full tile lines up with them. Left out when they would be under 4 pixels.
  std::string tiles;
  if (map.tile_rows > 0 && map.tile_cols > 0 && map.tile_cols * sx >= 4 &&
      map.tile_rows * sy >= 4) {
    std::string path;
    for (long long col = map.tile_cols; col < map.cols; col += map.tile_cols) {
      path += fmt::format("M{} {}V{}", px(kLeft + col * sx), px(kTop), px(kTop + plot_h));
    }
    for (long long row = map.tile_rows; row < map.rows; row += map.tile_rows) {
      path += fmt::format("M{} {}H{}", px(kLeft), px(kTop + row * sy), px(kLeft + plot_w));
    }
    if (!path.empty()) {
      tiles = fmt::format(
          R"(<path class="tile-grid" d="{}" stroke="#1d4ed8" stroke-width="1" stroke-dasharray="3 2" fill="none"><title>thread blocks of {} &#215; {} elements</title></path>)",
          path, map.tile_rows, map.tile_cols);
    }
  }

  const std::size_t total_cells = map.wrong_fraction.size();
  const std::string description = fmt::format(
      "Error map of the {} &#215; {} matrix: {} of {} cells have wrong elements, {} entirely wrong",
      map.rows, map.cols, wrong_cells, total_cells, all_wrong_cells);
  const double legend_y = kTop + plot_h + 18;

  std::string svg = fmt::format(
      R"(<svg class="error-map" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{desc}">)"
      "\n<title>{desc}</title>\n",
      fmt::arg("w", px(width)), fmt::arg("h", px(height)), fmt::arg("desc", description));
  // Axes: the column axis on top (row 0 is at the top, as in the matrix), rows on the left.
  svg += fmt::format(
      R"(<text x="{}" y="14" class="chart-axis" text-anchor="middle">columns</text>)"
      R"(<text x="{}" y="32" class="chart-small">0</text>)"
      R"(<text x="{}" y="32" class="chart-small" text-anchor="end">{}</text>)"
      R"svg(<text x="14" y="{}" class="chart-axis" text-anchor="middle" transform="rotate(-90 14 {})">rows</text>)svg"
      R"(<text x="{}" y="{}" class="chart-small" text-anchor="end">0</text>)"
      R"(<text x="{}" y="{}" class="chart-small" text-anchor="end">{}</text>)"
      "\n",
      px(kLeft + plot_w / 2), px(kLeft), px(kLeft + plot_w), map.cols, px(kTop + plot_h / 2),
      px(kTop + plot_h / 2), px(kLeft - 6), px(kTop + 10), px(kLeft - 6), px(kTop + plot_h),
      map.rows);
  svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", px(kLeft),
                     px(kTop), px(plot_w), px(plot_h), hex(kCorrectCell));
  svg += '\n';
  svg += cells;
  svg += grid;
  svg += tiles;
  svg += fmt::format(
      R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#475569" stroke-width="1"/>)",
      px(kLeft), px(kTop), px(plot_w), px(plot_h));
  svg += '\n';
  svg += legend_swatch(kLeft, legend_y, kCorrectCell, "all correct");
  svg += legend_swatch(kLeft + 96, legend_y, wrong_shade(0.05), "some wrong");
  svg += legend_swatch(kLeft + 192, legend_y, kAllWrong, "all wrong");
  if (!tiles.empty()) {
    svg += fmt::format(
        R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#1d4ed8" stroke-dasharray="3 2"/><text x="{}" y="{}" class="chart-small">blocks</text>)",
        px(kLeft + 288), px(legend_y + 6), px(kLeft + 304), px(legend_y + 6), px(kLeft + 309),
        px(legend_y + 10));
  }
  svg += "\n</svg>";
  return svg;
}

std::string speed_chart_svg(std::span<const SpeedBar> bars) {
  constexpr double kWidth = 940;    // the page's content width, so the chart is drawn 1:1
  constexpr double kBarX = 248;     // bars start here; the check names sit to the left
  constexpr double kBarSpan = 522;  // pixels for the largest share on the axis
  constexpr double kGroupTop = 40;  // below the legend
  constexpr double kGroupHeight = 76;
  constexpr double kBarHeight = 20;

  // One axis for every check: shares of the reference rate, so GB/s and GFLOP/s compare.
  const auto share_of = [](const contract::Timing& t) {
    return t.reference_rate > 0 ? t.rate / t.reference_rate : t.ratio;
  };
  double largest = 1;
  for (const auto& bar : bars) {
    if (!bar.timing || !(bar.timing->reference_rate > 0)) continue;
    const double share = share_of(*bar.timing);
    if (std::isfinite(share)) largest = std::max(largest, share);
    if (std::isfinite(bar.timing->threshold)) largest = std::max(largest, bar.timing->threshold);
  }
  const double tick_step = largest <= 1.5 ? 0.25 : largest <= 3 ? 0.5 : std::ceil(largest / 6);
  const double axis_max = std::ceil(largest * 1.05 / tick_step) * tick_step;
  const auto x_of = [&](double share) {
    return kBarX + std::clamp(share, 0.0, axis_max) / axis_max * kBarSpan;
  };

  const double axis_y = kGroupTop + static_cast<double>(bars.size()) * kGroupHeight;
  const double height = axis_y + 44;
  std::string svg = fmt::format(
      R"(<svg class="speed-chart" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{desc}">)"
      "\n<title>{desc}</title>\n",
      fmt::arg("w", px(kWidth)), fmt::arg("h", px(height)),
      fmt::arg("desc",
               "Rate of your kernel and of the reference for each speed check, as a share "
               "of the reference rate; dashed lines mark the share needed to pass"));

  // Legend.
  svg += fmt::format(
      R"(<rect x="{x0}" y="4" width="14" height="12" class="bar-student"/><text x="{x1}" y="14" class="chart-small">your kernel</text>)"
      R"(<rect x="{x2}" y="4" width="14" height="12" class="bar-reference"/><text x="{x3}" y="14" class="chart-small">reference</text>)"
      R"(<line x1="{x4}" y1="2" x2="{x4}" y2="18" class="threshold-line"/><text x="{x5}" y="14" class="chart-small">needed to pass</text>)"
      "\n",
      fmt::arg("x0", px(kBarX)), fmt::arg("x1", px(kBarX + 19)), fmt::arg("x2", px(kBarX + 110)),
      fmt::arg("x3", px(kBarX + 129)), fmt::arg("x4", px(kBarX + 220)),
      fmt::arg("x5", px(kBarX + 227)));

  // Grid lines and tick labels first, so bars draw over them.
  for (double tick = 0; tick <= axis_max + 1e-9; tick += tick_step) {
    const double x = x_of(tick);
    svg += fmt::format(
        R"(<line x1="{x}" y1="{top}" x2="{x}" y2="{bottom}" class="{cls}"/><text x="{x}" y="{label}" class="chart-small" text-anchor="middle">{text}</text>)"
        "\n",
        fmt::arg("x", px(x)), fmt::arg("top", px(kGroupTop - 6)), fmt::arg("bottom", px(axis_y)),
        fmt::arg("cls", std::abs(tick - 1) < 1e-9 ? "grid-line grid-line-reference" : "grid-line"),
        fmt::arg("label", px(axis_y + 14)), fmt::arg("text", format_percent(tick)));
  }
  svg += fmt::format(
      R"(<text x="{}" y="{}" class="chart-axis" text-anchor="middle">share of the reference rate</text>)"
      "\n",
      px(kBarX + kBarSpan / 2), px(axis_y + 34));

  for (std::size_t i = 0; i < bars.size(); ++i) {
    const auto& bar = bars[i];
    const double top = kGroupTop + static_cast<double>(i) * kGroupHeight;
    const double student_y = top + 14;
    const double reference_y = student_y + kBarHeight + 4;
    svg += fmt::format(R"(<g><title>{}</title>)", html_escape(bar.title));
    // The title whole, in up to three lines beside the bars (a longer one ends in an ellipsis;
    // the table below the chart has it whole).
    const auto lines = wrapped_label(bar.title, 30, 3);
    const double first_line = student_y + 15 - 7 * static_cast<double>(lines.size() - 1);
    svg += R"(<text class="chart-label">)";
    for (std::size_t line = 0; line < lines.size(); ++line) {
      svg += fmt::format(R"(<tspan x="0" y="{}">{}</tspan>)",
                         px(first_line + 14 * static_cast<double>(line)), lines[line]);
    }
    svg += "</text>";
    const double reference_label_y =
        std::max(reference_y + 15, first_line + 14 * static_cast<double>(lines.size() - 1) + 16);
    const contract::Timing* t = bar.timing;
    if (!t || !(t->reference_rate > 0) || !std::isfinite(share_of(*t))) {
      const std::string why = !t ? fmt::format("nothing measured ({})", verdict_label(bar.verdict))
                                 : std::string("no reference rate to compare with");
      svg += fmt::format(R"(<text x="{}" y="{}" class="chart-note">{}</text></g>)", px(kBarX),
                         px(student_y + 15), why);
      svg += '\n';
      continue;
    }
    const double share = share_of(*t);
    const std::string unit = html_escape(t->rate_unit);
    svg += fmt::format(R"(<text x="0" y="{}" class="chart-small">vs {}</text>)",
                       px(reference_label_y), short_label(t->reference_name, 32));
    svg += fmt::format(
        R"(<rect x="{x}" y="{y}" width="{w}" height="{h}" class="bar-student"/><text x="{tx}" y="{ty}" class="chart-value">{rate} {unit} ({share})</text>)",
        fmt::arg("x", px(kBarX)), fmt::arg("y", px(student_y)),
        fmt::arg("w", px(x_of(share) - kBarX)), fmt::arg("h", px(kBarHeight)),
        fmt::arg("tx", px(x_of(share) + 6)), fmt::arg("ty", px(student_y + 15)),
        fmt::arg("rate", format_significant(t->rate)), fmt::arg("unit", unit),
        fmt::arg("share", format_percent(share)));
    svg += fmt::format(
        R"(<rect x="{x}" y="{y}" width="{w}" height="{h}" class="bar-reference"/><text x="{tx}" y="{ty}" class="chart-value">{rate} {unit}</text>)",
        fmt::arg("x", px(kBarX)), fmt::arg("y", px(reference_y)),
        fmt::arg("w", px(x_of(1) - kBarX)), fmt::arg("h", px(kBarHeight)),
        fmt::arg("tx", px(x_of(1) + 6)), fmt::arg("ty", px(reference_y + 15)),
        fmt::arg("rate", format_significant(t->reference_rate)), fmt::arg("unit", unit));
    if (t->threshold > 0 && std::isfinite(t->threshold)) {
      const double x = x_of(t->threshold);
      svg += fmt::format(
          R"(<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}" class="threshold-line"/><text x="{x}" y="{ty}" class="chart-small" text-anchor="middle">needs {share}</text>)",
          fmt::arg("x", px(x)), fmt::arg("y1", px(student_y - 2)),
          fmt::arg("y2", px(reference_y + kBarHeight + 2)), fmt::arg("ty", px(top + 9)),
          fmt::arg("share", format_percent(t->threshold)));
    }
    svg += "</g>\n";
  }
  svg += "</svg>";
  return svg;
}

}  // namespace reports::detail
