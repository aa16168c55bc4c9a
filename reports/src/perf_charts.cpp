#include "perf_charts.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "format.hpp"
#include "reports/html.hpp"
#include "reports/svg.hpp"

namespace reports::detail {
namespace {

using svg::LogAxis;
using svg::px;

double gflops_of(const contract::Timing& t, double median_ms) {
  return median_ms > 0 ? t.flops / (median_ms * 1e-3) / 1e9 : 0;
}

// The roofline's layout.
constexpr double kWidth = 760, kHeight = 380;
constexpr double kLeft = 70, kRight = 230, kTop = 20, kBottom = 50;

// What the roofline draws: the entries with figures, the run's roofs and both axes.
struct Roofline {
  std::vector<RooflineEntry> drawn;
  double bandwidth = 0;  // GB/s, the fastest cudaMemcpy of the run
  double compute = 0;    // GFLOP/s, the fastest cuBLAS of the run; 0: none measured
  double x_low = 1e300, x_high = 0, y_low = 1e300, y_high = 0;

  // Bandwidth x intensity, capped by cuBLAS.
  double roof_at(double ai) const {
    const double memory = bandwidth * ai;
    return compute > 0 ? std::min(memory, compute) : memory;
  }
  LogAxis x() const { return {x_low, x_high, kLeft, kWidth - kRight}; }
  LogAxis y() const { return {y_low, y_high, kHeight - kBottom, kTop}; }
};

// Axes wide enough for every point and both roofs, in whole decades.
void fit_axes(Roofline& r) {
  for (const auto& e : r.drawn) {
    const auto& t = *e.timing;
    const double ai = t.flops / t.bytes;
    r.x_low = std::min(r.x_low, ai);
    r.x_high = std::max(r.x_high, ai);
    for (double y : {gflops_of(t, t.median_ms), gflops_of(t, t.reference_median_ms),
                     t.cublas_gflops, r.roof_at(ai)}) {
      if (y > 0) {
        r.y_low = std::min(r.y_low, y);
        r.y_high = std::max(r.y_high, y);
      }
    }
  }
  if (r.compute > 0) r.y_high = std::max(r.y_high, r.compute);
  // Show the ridge (where the slanted roof meets the flat one) and some of the slant below it.
  if (r.compute > 0) r.x_low = std::min(r.x_low, r.compute / r.bandwidth / 10);
  std::tie(r.x_low, r.x_high) = svg::decades(r.x_low / 3, r.x_high * 3);
  std::tie(r.y_low, r.y_high) = svg::decades(r.y_low / 2, r.y_high * 2);
}

// Decade grid, tick labels and the axes' titles.
std::string roofline_axes(const Roofline& r) {
  const LogAxis x = r.x(), y = r.y();
  std::string svg;
  for (double v = r.x_low; v <= r.x_high * 1.0001; v *= 10) {
    svg += svg::vertical_tick(x.at(v), kTop, kHeight - kBottom, kHeight - kBottom + 14,
                              svg::decade_label(v));
  }
  for (double v = r.y_low; v <= r.y_high * 1.0001; v *= 10) {
    svg += svg::horizontal_tick(y.at(v), kLeft, kWidth - kRight, kLeft - 6, y.at(v) + 4,
                                svg::decade_label(v));
  }
  svg += svg::text((kLeft + kWidth - kRight) / 2, kHeight - 12, "chart-axis",
                   "FLOP per byte (the least traffic the product needs)", "middle");
  svg += svg::vertical_title(16, (kTop + kHeight - kBottom) / 2, "GFLOP/s");
  return svg + '\n';
}

// The roofs as one path, and their labels.
std::string roofs(const Roofline& r) {
  const LogAxis x = r.x(), y = r.y();
  std::string roof;
  constexpr int kSteps = 48;
  for (int i = 0; i <= kSteps; ++i) {
    const double ai = r.x_low * std::pow(r.x_high / r.x_low, static_cast<double>(i) / kSteps);
    roof += fmt::format("{}{} {}", i == 0 ? "M" : "L", px(x.at(ai)), px(y.at(r.roof_at(ai))));
  }
  std::string svg = fmt::format(R"(<path d="{}" class="roof-line" fill="none"/>)", roof);
  svg += svg::text(x.at(r.x_low) + 6, y.at(r.roof_at(r.x_low * 1.5)) - 8, "chart-small",
                   fmt::format("memory: {} GB/s (cudaMemcpy)", format_significant(r.bandwidth)));
  if (r.compute > 0) {
    svg += svg::text(kWidth - kRight, y.at(r.compute) - 6, "chart-small",
                     fmt::format("cuBLAS: {} GFLOP/s", format_significant(r.compute)), "end");
  }
  return svg + '\n';
}

// Entry i: the student's kernel, its reference and cuBLAS at its intensity, numbered, and its
// line in the list on the right.
std::string roofline_point(const Roofline& r, std::size_t i) {
  const LogAxis x = r.x(), y = r.y();
  const auto& t = *r.drawn[i].timing;
  const double ai = t.flops / t.bytes;
  const double px_x = x.at(ai);
  const double own = gflops_of(t, t.median_ms);
  const double ref = gflops_of(t, t.reference_median_ms);
  std::string svg = fmt::format(
      R"(<g data-ai="{:.4g}" data-gflops="{:.4g}"><title>{}: {} GFLOP/s at {} FLOP/byte</title>)",
      ai, own, html_escape(r.drawn[i].title), format_significant(own), format_significant(ai));
  if (t.cublas_gflops > 0) {
    svg += fmt::format(R"(<rect x="{}" y="{}" width="9" height="9" class="point-cublas"/>)",
                       px(px_x - 4.5), px(y.at(t.cublas_gflops) - 4.5));
  }
  if (ref > 0) {
    svg += fmt::format(R"(<circle cx="{}" cy="{}" r="5" class="point-reference"/>)", px(px_x),
                       px(y.at(ref)));
  }
  svg += fmt::format(R"(<circle cx="{}" cy="{}" r="6" class="point-student"/>)", px(px_x),
                     px(y.at(own)));
  svg += svg::text(px_x + 9, y.at(own) + 4, "chart-small", std::to_string(i + 1)) + "</g>\n";
  svg += svg::text(kWidth - kRight + 12, kTop + 60 + 16.0 * static_cast<double>(i), "chart-small",
                   fmt::format("{}. {}", i + 1, svg::label_within_bytes(r.drawn[i].title, 26)));
  return svg;
}

std::string roofline_legend() {
  const double legend_x = kWidth - kRight + 12;
  return fmt::format(
      R"(<circle cx="{a}" cy="{y0}" r="6" class="point-student"/><text x="{b}" y="{t0}" class="chart-small">your kernel</text>)"
      R"(<circle cx="{a}" cy="{y1}" r="5" class="point-reference"/><text x="{b}" y="{t1}" class="chart-small">reference</text>)"
      R"(<rect x="{r}" y="{y2r}" width="9" height="9" class="point-cublas"/><text x="{b}" y="{t2}" class="chart-small">cuBLAS</text>)",
      fmt::arg("a", px(legend_x + 5)), fmt::arg("b", px(legend_x + 16)),
      fmt::arg("r", px(legend_x + 0.5)), fmt::arg("y0", px(kTop + 6)),
      fmt::arg("t0", px(kTop + 10)), fmt::arg("y1", px(kTop + 22)), fmt::arg("t1", px(kTop + 26)),
      fmt::arg("y2r", px(kTop + 33.5)), fmt::arg("t2", px(kTop + 42)));
}

}  // namespace

bool has_roofline_figures(const contract::Timing& t) {
  return t.flops > 0 && t.bytes > 0 && t.memcpy_gbps > 0 && t.median_ms > 0 &&
         std::isfinite(t.flops / t.bytes);
}

std::string roofline_svg(std::span<const RooflineEntry> entries) {
  Roofline r;
  for (const auto& e : entries) {
    if (!e.timing || !has_roofline_figures(*e.timing)) continue;
    r.drawn.push_back(e);
    r.bandwidth = std::max(r.bandwidth, e.timing->memcpy_gbps);
    r.compute = std::max(r.compute, e.timing->cublas_gflops);
  }
  if (r.drawn.empty()) return {};
  fit_axes(r);
  std::string svg = svg::open_figure(
      "roofline", kWidth, kHeight,
      "Roofline: floating-point rate against arithmetic intensity, with the memory bandwidth "
      "and cuBLAS measured in the same run");
  svg += roofline_axes(r);
  svg += roofs(r);
  for (std::size_t i = 0; i < r.drawn.size(); ++i) svg += roofline_point(r, i);
  svg += roofline_legend();
  svg += "\n</svg>";
  return svg;
}

std::string times_svg(std::span<const TimeBar> bars, const std::string& caption) {
  std::vector<TimeBar> drawn;
  for (const auto& b : bars) {
    if (b.median_ms > 0 && std::isfinite(b.median_ms)) drawn.push_back(b);
  }
  if (drawn.size() < 2) return {};
  double low = drawn.front().median_ms, high = low;
  for (const auto& b : drawn) {
    low = std::min(low, b.median_ms);
    high = std::max(high, b.median_ms);
  }
  std::tie(low, high) = svg::decades(low / 2, high * 1.5);
  constexpr double kChartWidth = 760, kLabels = 300, kValues = 90, kChartTop = 10, kRow = 30;
  const double axis_y = kChartTop + kRow * static_cast<double>(drawn.size());
  const LogAxis x{low, high, kLabels, kChartWidth - kValues};
  std::string svg = svg::open_figure("times-chart", kChartWidth, axis_y + 40, html_escape(caption));
  for (double v = low; v <= high * 1.0001; v *= 10) {
    svg +=
        svg::vertical_tick(x.at(v), kChartTop, axis_y, axis_y + 14, svg::decade_label(v) + " ms");
  }
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const auto& b = drawn[i];
    const double top = kChartTop + kRow * static_cast<double>(i) + 5;
    const double end = std::max(x.at(b.median_ms), kLabels + 2);
    svg += svg::text(kLabels - 8, top + 14, "chart-label", svg::label_within_bytes(b.label, 30),
                     "end");
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="18" class="{}"/>)", px(kLabels),
                       px(top), px(end - kLabels), b.reference ? "bar-reference" : "bar-student");
    svg += svg::text(end + 6, top + 14, "chart-value", format_significant(b.median_ms) + " ms");
    svg += '\n';
  }
  svg += svg::text((kLabels + kChartWidth - kValues) / 2, axis_y + 34, "chart-axis",
                   "median time (log scale)", "middle");
  svg += "\n</svg>";
  return svg;
}

}  // namespace reports::detail
