#include "charts.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "format.hpp"
#include "reports/ceiling.hpp"
#include "reports/html.hpp"
#include "reports/svg.hpp"

namespace reports::detail {
namespace {

using svg::px;

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
             R"(<rect x="{}" y="{}" width="12" height="12" fill="{}" stroke="#64748b" stroke-width="0.5"/>)",
             px(x), px(y), hex(colour)) +
         svg::text(x + 17, y + 10, "chart-small", text);
}

// The map's plot: its place on the page, its size, and pixels per element.
constexpr double kMapLeft = 76;
constexpr double kMapTop = 40;

struct MapFrame {
  double plot_w, plot_h;
  double sx, sy;  // pixels per element
  double x(long long col) const { return kMapLeft + col * sx; }
  double y(long long row) const { return kMapTop + row * sy; }
};

MapFrame frame_of(const contract::ErrorMap& map) {
  const auto [plot_w, plot_h] = plot_size(map);
  return {plot_w, plot_h, plot_w / static_cast<double>(map.cols),
          plot_h / static_cast<double>(map.rows)};
}

struct CellCounts {
  int wrong = 0;
  int all_wrong = 0;
};

// One rectangle per wrong cell. Neighbouring cells of one row with the same share become one
// rectangle: a matrix that is wrong everywhere is then one rectangle per row, not thousands
// (reports stay small).
std::string wrong_cells(const contract::ErrorMap& map, const MapFrame& f, CellCounts& counts) {
  std::string cells;
  for (int i = 0; i < map.grid_rows; ++i) {
    const long long row0 = i * map.cell_rows;
    if (row0 >= map.rows) break;
    const long long row1 = std::min(map.rows, row0 + map.cell_rows);
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
      counts.wrong += run;
      if (share >= 1) counts.all_wrong += run;
      cells += fmt::format(
          R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"><title>rows {}&#8211;{}, columns {}&#8211;{}: {} wrong</title></rect>)",
          px(f.x(col0)), px(f.y(row0)), px((col1 - col0) * f.sx), px((row1 - row0) * f.sy),
          hex(wrong_shade(share)), row0, row1 - 1, col0, col1 - 1, format_percent(share));
      cells += '\n';
    }
  }
  return cells;
}

// Path data of lines every `rows` rows and every `cols` columns across the plot.
std::string lines_every(const contract::ErrorMap& map, const MapFrame& f, long long rows,
                        long long cols) {
  std::string path;
  for (long long col = cols; col < map.cols; col += cols) {
    path += fmt::format("M{} {}V{}", px(f.x(col)), px(kMapTop), px(kMapTop + f.plot_h));
  }
  for (long long row = rows; row < map.rows; row += rows) {
    path += fmt::format("M{} {}H{}", px(kMapLeft), px(f.y(row)), px(kMapLeft + f.plot_w));
  }
  return path;
}

// Cell borders only where cells are big enough for them to help rather than grey everything out.
std::string cell_borders(const contract::ErrorMap& map, const MapFrame& f) {
  if (map.cell_cols * f.sx < 6 || map.cell_rows * f.sy < 6) return {};
  const std::string path = lines_every(map, f, map.cell_rows, map.cell_cols);
  if (path.empty()) return {};
  return fmt::format(R"(<path d="{}" stroke="#ffffff" stroke-width="1" fill="none"/>)", path);
}

// The launch's blocks (tiles) over the map, in a distinct colour, so a wrong tile or a wrong
// border past the last full tile lines up with them. Left out when they would be under 4 pixels.
std::string block_grid(const contract::ErrorMap& map, const MapFrame& f) {
  if (!(map.tile_rows > 0 && map.tile_cols > 0 && map.tile_cols * f.sx >= 4 &&
        map.tile_rows * f.sy >= 4)) {
    return {};
  }
  const std::string path = lines_every(map, f, map.tile_rows, map.tile_cols);
  if (path.empty()) return {};
  return fmt::format(
      R"(<path class="tile-grid" d="{}" stroke="#1d4ed8" stroke-width="1" stroke-dasharray="3 2" fill="none"><title>thread blocks of {} &#215; {} elements</title></path>)",
      path, map.tile_rows, map.tile_cols);
}

// The column axis on top (row 0 is at the top, as in the matrix), rows on the left.
std::string map_axes(const contract::ErrorMap& map, const MapFrame& f) {
  return fmt::format(R"(<text x="{}" y="14" class="chart-axis" text-anchor="middle">columns</text>)"
                     R"(<text x="{}" y="32" class="chart-small">0</text>)"
                     R"(<text x="{}" y="32" class="chart-small" text-anchor="end">{}</text>)"
                     "{}"
                     R"(<text x="{}" y="{}" class="chart-small" text-anchor="end">0</text>)"
                     R"(<text x="{}" y="{}" class="chart-small" text-anchor="end">{}</text>)"
                     "\n",
                     px(kMapLeft + f.plot_w / 2), px(kMapLeft), px(kMapLeft + f.plot_w), map.cols,
                     svg::vertical_title(14, kMapTop + f.plot_h / 2, "rows"), px(kMapLeft - 6),
                     px(kMapTop + 10), px(kMapLeft - 6), px(kMapTop + f.plot_h), map.rows);
}

std::string map_legend(double y, bool with_blocks) {
  std::string legend = legend_swatch(kMapLeft, y, kCorrectCell, "all correct");
  legend += legend_swatch(kMapLeft + 96, y, wrong_shade(0.05), "some wrong");
  legend += legend_swatch(kMapLeft + 192, y, kAllWrong, "all wrong");
  if (with_blocks) {
    legend += fmt::format(
        R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#1d4ed8" stroke-dasharray="3 2"/>)",
        px(kMapLeft + 288), px(y + 6), px(kMapLeft + 304), px(y + 6));
    legend += svg::text(kMapLeft + 309, y + 10, "chart-small", "blocks");
  }
  return legend;
}

}  // namespace

std::string error_map_svg(const contract::ErrorMap& map) {
  if (!is_drawable(map)) {
    return R"(<p class="muted">This case's error map cannot be drawn: its sizes do not add up, )"
           R"(or it has more than 65,536 cells.</p>)";
  }
  constexpr double kRight = 12;
  constexpr double kLegendHeight = 40;
  const MapFrame f = frame_of(map);
  const double width = std::max(kMapLeft + f.plot_w + kRight, 400.0);
  const double height = kMapTop + f.plot_h + kLegendHeight;

  CellCounts counts;
  const std::string cells = wrong_cells(map, f, counts);
  const std::string blocks = block_grid(map, f);
  const std::string description = fmt::format(
      "Error map of the {} &#215; {} matrix: {} of {} cells have wrong elements, {} entirely wrong",
      map.rows, map.cols, counts.wrong, map.wrong_fraction.size(), counts.all_wrong);

  std::string svg = svg::open_figure("error-map", width, height, description);
  svg += map_axes(map, f);
  svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", px(kMapLeft),
                     px(kMapTop), px(f.plot_w), px(f.plot_h), hex(kCorrectCell));
  svg += '\n';
  svg += cells;
  svg += cell_borders(map, f);
  svg += blocks;
  svg += fmt::format(
      R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#475569" stroke-width="1"/>)",
      px(kMapLeft), px(kMapTop), px(f.plot_w), px(f.plot_h));
  svg += '\n';
  svg += map_legend(kMapTop + f.plot_h + 18, !blocks.empty());
  svg += "\n</svg>";
  return svg;
}

namespace {

// The speed chart's layout: the page's content width, so the chart is drawn 1:1.
constexpr double kSpeedWidth = 940;
constexpr double kBarX = 248;     // bars start here; the check names sit to the left
constexpr double kBarSpan = 522;  // pixels for the largest share on the axis
constexpr double kGroupTop = 40;  // below the legend
constexpr double kGroupHeight = 76;
constexpr double kBarHeight = 20;

double share_of(const contract::Timing& t) {
  return t.reference_rate > 0 ? t.rate / t.reference_rate : t.ratio;
}

// One axis for every check: shares of the reference rate, so GB/s and GFLOP/s compare.
struct ShareAxis {
  double tick_step, axis_max;
  double x(double share) const {
    return kBarX + std::clamp(share, 0.0, axis_max) / axis_max * kBarSpan;
  }
};

ShareAxis share_axis(std::span<const SpeedBar> bars) {
  double largest = 1;
  for (const auto& bar : bars) {
    if (!bar.timing || !(bar.timing->reference_rate > 0)) continue;
    if (bar.verdict == contract::Verdict::implausible) continue;  // drawn as words, not a bar
    const double share = share_of(*bar.timing);
    if (std::isfinite(share)) largest = std::max(largest, share);
    if (std::isfinite(bar.timing->threshold)) largest = std::max(largest, bar.timing->threshold);
  }
  const double tick_step = largest <= 1.5 ? 0.25 : largest <= 3 ? 0.5 : std::ceil(largest / 6);
  return {tick_step, std::ceil(largest * 1.05 / tick_step) * tick_step};
}

std::string speed_legend() {
  return fmt::format(
      R"(<rect x="{x0}" y="4" width="14" height="12" class="bar-student"/><text x="{x1}" y="14" class="chart-small">your kernel</text>)"
      R"(<rect x="{x2}" y="4" width="14" height="12" class="bar-reference"/><text x="{x3}" y="14" class="chart-small">reference</text>)"
      R"(<line x1="{x4}" y1="2" x2="{x4}" y2="18" class="threshold-line"/><text x="{x5}" y="14" class="chart-small">needed to pass</text>)"
      "\n",
      fmt::arg("x0", px(kBarX)), fmt::arg("x1", px(kBarX + 19)), fmt::arg("x2", px(kBarX + 110)),
      fmt::arg("x3", px(kBarX + 129)), fmt::arg("x4", px(kBarX + 220)),
      fmt::arg("x5", px(kBarX + 227)));
}

// Grid lines and tick labels (drawn first, so bars draw over them) and the axis's title.
std::string share_ticks(const ShareAxis& axis, double axis_y) {
  std::string ticks;
  for (double tick = 0; tick <= axis.axis_max + 1e-9; tick += axis.tick_step) {
    const bool at_reference = std::abs(tick - 1) < 1e-9;
    ticks +=
        svg::vertical_tick(axis.x(tick), kGroupTop - 6, axis_y, axis_y + 14, format_percent(tick),
                           at_reference ? "grid-line grid-line-reference" : "grid-line");
  }
  ticks += svg::text(kBarX + kBarSpan / 2, axis_y + 34, "chart-axis", "share of the reference rate",
                     "middle");
  return ticks + '\n';
}

// The check's title whole, in up to three lines beside the bars (a longer one ends in an
// ellipsis; the table below the chart has it whole). Returns the y of its last line.
double title_lines(std::string& svg, std::string_view title, double student_y) {
  const auto lines = svg::wrapped_label(title, 30, 3);
  const double first_line = student_y + 15 - 7 * static_cast<double>(lines.size() - 1);
  svg += R"(<text class="chart-label">)";
  for (std::size_t line = 0; line < lines.size(); ++line) {
    svg += fmt::format(R"(<tspan x="0" y="{}">{}</tspan>)",
                       px(first_line + 14 * static_cast<double>(line)), lines[line]);
  }
  svg += "</text>";
  return first_line + 14 * static_cast<double>(lines.size() - 1);
}

// The student's bar, the reference's, the reference's name and the pass threshold.
std::string measured_bars(const contract::Timing& t, const ShareAxis& axis, double top,
                          double student_y, double reference_label_y) {
  const double reference_y = student_y + kBarHeight + 4;
  const double share = share_of(t);
  const std::string unit = html_escape(t.rate_unit);
  std::string svg =
      fmt::format(R"(<text x="0" y="{}" class="chart-small">vs {}</text>)", px(reference_label_y),
                  svg::label_within_chars(t.reference_name, 32));
  svg += svg::rect(kBarX, student_y, axis.x(share) - kBarX, kBarHeight, "bar-student");
  svg +=
      svg::text(axis.x(share) + 6, student_y + 15, "chart-value",
                fmt::format("{} {} ({})", format_significant(t.rate), unit, format_percent(share)));
  svg += svg::rect(kBarX, reference_y, axis.x(1) - kBarX, kBarHeight, "bar-reference");
  svg += svg::text(axis.x(1) + 6, reference_y + 15, "chart-value",
                   fmt::format("{} {}", format_significant(t.reference_rate), unit));
  if (t.threshold > 0 && std::isfinite(t.threshold)) {
    const double x = axis.x(t.threshold);
    svg += svg::line(x, student_y - 2, x, reference_y + kBarHeight + 2, "threshold-line");
    svg += svg::text(x, top + 9, "chart-small", "needs " + format_percent(t.threshold), "middle");
  }
  return svg;
}

// In place of an implausible check's bars, one line (the ceiling's name is in the table below):
// "implausible: 90.1 TFLOP/s, beyond this GPU's ceiling of 66.9 TFLOP/s". Escaped.
std::string implausible_note(const contract::Timing* t) {
  if (!t) return "implausible: more than this GPU can do";
  std::string words = "implausible: " + format_rate(t->rate, t->rate_unit);
  words += t->ceiling > 0
               ? ", beyond this GPU's ceiling of " + format_rate(t->ceiling, t->rate_unit)
               : std::string(", more than this GPU can do");
  return svg::label_within_chars(words, 96);
}

std::string bar_group(const SpeedBar& bar, const ShareAxis& axis, double top) {
  const double student_y = top + 14;
  const double reference_y = student_y + kBarHeight + 4;
  std::string svg = fmt::format(R"(<g><title>{}</title>)", html_escape(bar.title));
  const double last_line = title_lines(svg, bar.title, student_y);
  const contract::Timing* t = bar.timing;
  // A figure beyond the hardware gets no bar: it would squash every other check's against it.
  if (bar.verdict == contract::Verdict::implausible) {
    return svg + svg::text(kBarX, student_y + 15, "chart-implausible", implausible_note(t)) +
           "</g>\n";
  }
  if (!t || !(t->reference_rate > 0) || !std::isfinite(share_of(*t))) {
    const std::string why = !t ? fmt::format("nothing measured ({})", verdict_label(bar.verdict))
                               : std::string("no reference rate to compare with");
    return svg + svg::text(kBarX, student_y + 15, "chart-note", why) + "</g>\n";
  }
  const double reference_label_y = std::max(reference_y + 15, last_line + 16);
  return svg + measured_bars(*t, axis, top, student_y, reference_label_y) + "</g>\n";
}

}  // namespace

std::string speed_chart_svg(std::span<const SpeedBar> bars) {
  const ShareAxis axis = share_axis(bars);
  const double axis_y = kGroupTop + static_cast<double>(bars.size()) * kGroupHeight;
  std::string svg = svg::open_figure(
      "speed-chart", kSpeedWidth, axis_y + 44,
      "Rate of your kernel and of the reference for each speed check, as a share of the "
      "reference rate; dashed lines mark the share needed to pass");
  svg += speed_legend();
  svg += share_ticks(axis, axis_y);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    svg += bar_group(bars[i], axis, kGroupTop + static_cast<double>(i) * kGroupHeight);
  }
  svg += "</svg>";
  return svg;
}

}  // namespace reports::detail
