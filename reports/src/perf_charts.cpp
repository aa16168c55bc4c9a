#include "perf_charts.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "format.hpp"
#include "reports/html.hpp"

namespace reports::detail {
namespace {

std::string px(double value) { return fmt::format("{:.1f}", value); }

// Powers of ten from below `low` to above `high`.
std::pair<double, double> decades(double low, double high) {
  return {std::pow(10.0, std::floor(std::log10(low))), std::pow(10.0, std::ceil(std::log10(high)))};
}

std::string tick_text(double value) {
  if (value >= 1000) return fmt::format("{:.0f}k", value / 1000);
  if (value >= 1) return fmt::format("{:.0f}", value);
  return fmt::format("{:g}", value);
}

// Escaped text of at most `chars` bytes (cut on a UTF-8 boundary), with an ellipsis when cut.
std::string shortened(const std::string& text, std::size_t chars) {
  if (text.size() <= chars) return html_escape(text);
  std::size_t cut = chars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return html_escape(text.substr(0, cut)) + "&#8230;";
}

double gflops_of(const contract::Timing& t, double median_ms) {
  return median_ms > 0 ? t.flops / (median_ms * 1e-3) / 1e9 : 0;
}

}  // namespace

double LogAxis::at(double value) const {
  const double v = std::clamp(value, low, high);
  const double share = (std::log10(v) - std::log10(low)) / (std::log10(high) - std::log10(low));
  return from_px + share * (to_px - from_px);
}

bool has_roofline_figures(const contract::Timing& t) {
  return t.flops > 0 && t.bytes > 0 && t.memcpy_gbps > 0 && t.median_ms > 0 &&
         std::isfinite(t.flops / t.bytes);
}

std::string roofline_svg(std::span<const RooflineEntry> entries) {
  std::vector<RooflineEntry> drawn;
  double bandwidth = 0;
  double compute = 0;
  for (const auto& e : entries) {
    if (!e.timing || !has_roofline_figures(*e.timing)) continue;
    drawn.push_back(e);
    bandwidth = std::max(bandwidth, e.timing->memcpy_gbps);
    compute = std::max(compute, e.timing->cublas_gflops);
  }
  if (drawn.empty()) return {};

  // Axes wide enough for every point and both roofs, in whole decades.
  double x_low = 1e300, x_high = 0, y_low = 1e300, y_high = 0;
  for (const auto& e : drawn) {
    const auto& t = *e.timing;
    const double ai = t.flops / t.bytes;
    x_low = std::min(x_low, ai);
    x_high = std::max(x_high, ai);
    const double roof = compute > 0 ? std::min(bandwidth * ai, compute) : bandwidth * ai;
    for (double y :
         {gflops_of(t, t.median_ms), gflops_of(t, t.reference_median_ms), t.cublas_gflops, roof}) {
      if (y > 0) {
        y_low = std::min(y_low, y);
        y_high = std::max(y_high, y);
      }
    }
  }
  if (compute > 0) y_high = std::max(y_high, compute);
  // Show the ridge (where the slanted roof meets the flat one) and some of the slant below it.
  if (compute > 0) x_low = std::min(x_low, compute / bandwidth / 10);
  std::tie(x_low, x_high) = decades(x_low / 3, x_high * 3);
  std::tie(y_low, y_high) = decades(y_low / 2, y_high * 2);

  constexpr double kWidth = 760, kHeight = 380;
  constexpr double kLeft = 70, kRight = 230, kTop = 20, kBottom = 50;
  const LogAxis x{x_low, x_high, kLeft, kWidth - kRight};
  const LogAxis y{y_low, y_high, kHeight - kBottom, kTop};

  std::string svg = fmt::format(
      R"(<svg class="roofline" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{d}">)"
      "\n<title>{d}</title>\n",
      fmt::arg("w", px(kWidth)), fmt::arg("h", px(kHeight)),
      fmt::arg("d",
               "Roofline: floating-point rate against arithmetic intensity, with the memory "
               "bandwidth and cuBLAS measured in the same run"));
  // Decade grid and labels.
  for (double v = x_low; v <= x_high * 1.0001; v *= 10) {
    svg += fmt::format(
        R"(<line x1="{x}" y1="{t}" x2="{x}" y2="{b}" class="grid-line"/><text x="{x}" y="{ly}" class="chart-small" text-anchor="middle">{v}</text>)"
        "\n",
        fmt::arg("x", px(x.at(v))), fmt::arg("t", px(kTop)), fmt::arg("b", px(kHeight - kBottom)),
        fmt::arg("ly", px(kHeight - kBottom + 14)), fmt::arg("v", tick_text(v)));
  }
  for (double v = y_low; v <= y_high * 1.0001; v *= 10) {
    svg += fmt::format(
        R"(<line x1="{l}" y1="{y}" x2="{r}" y2="{y}" class="grid-line"/><text x="{lx}" y="{ty}" class="chart-small" text-anchor="end">{v}</text>)"
        "\n",
        fmt::arg("l", px(kLeft)), fmt::arg("r", px(kWidth - kRight)), fmt::arg("y", px(y.at(v))),
        fmt::arg("lx", px(kLeft - 6)), fmt::arg("ty", px(y.at(v) + 4)),
        fmt::arg("v", tick_text(v)));
  }
  svg += fmt::format(
      R"(<text x="{}" y="{}" class="chart-axis" text-anchor="middle">FLOP per byte (the least traffic the product needs)</text>)"
      R"svg(<text x="16" y="{}" class="chart-axis" text-anchor="middle" transform="rotate(-90 16 {})">GFLOP/s</text>)svg"
      "\n",
      px((kLeft + kWidth - kRight) / 2), px(kHeight - 12), px((kTop + kHeight - kBottom) / 2),
      px((kTop + kHeight - kBottom) / 2));

  // The roofs: bandwidth x intensity, capped by cuBLAS.
  const auto roof_at = [&](double ai) {
    const double memory = bandwidth * ai;
    return compute > 0 ? std::min(memory, compute) : memory;
  };
  std::string roof;
  constexpr int kSteps = 48;
  for (int i = 0; i <= kSteps; ++i) {
    const double ai = x_low * std::pow(x_high / x_low, static_cast<double>(i) / kSteps);
    roof += fmt::format("{}{} {}", i == 0 ? "M" : "L", px(x.at(ai)), px(y.at(roof_at(ai))));
  }
  svg += fmt::format(R"(<path d="{}" class="roof-line" fill="none"/>)", roof);
  svg += fmt::format(
      R"(<text x="{}" y="{}" class="chart-small">memory: {} GB/s (cudaMemcpy)</text>)",
      px(x.at(x_low) + 6), px(y.at(roof_at(x_low * 1.5)) - 8), format_significant(bandwidth));
  if (compute > 0) {
    svg += fmt::format(
        R"(<text x="{}" y="{}" class="chart-small" text-anchor="end">cuBLAS: {} GFLOP/s</text>)",
        px(kWidth - kRight), px(y.at(compute) - 6), format_significant(compute));
  }
  svg += '\n';

  // The points, with a legend on the right.
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const auto& t = *drawn[i].timing;
    const double ai = t.flops / t.bytes;
    const double px_x = x.at(ai);
    const double own = gflops_of(t, t.median_ms);
    const double ref = gflops_of(t, t.reference_median_ms);
    svg += fmt::format(
        R"(<g data-ai="{:.4g}" data-gflops="{:.4g}"><title>{}: {} GFLOP/s at {} FLOP/byte</title>)",
        ai, own, html_escape(drawn[i].title), format_significant(own), format_significant(ai));
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
    svg += fmt::format(R"(<text x="{}" y="{}" class="chart-small">{}</text></g>)", px(px_x + 9),
                       px(y.at(own) + 4), i + 1);
    svg += '\n';
    svg += fmt::format(R"(<text x="{}" y="{}" class="chart-small">{}. {}</text>)",
                       px(kWidth - kRight + 12), px(kTop + 60 + 16.0 * static_cast<double>(i)),
                       i + 1, shortened(drawn[i].title, 26));
  }
  const double legend_x = kWidth - kRight + 12;
  svg += fmt::format(
      R"(<circle cx="{a}" cy="{y0}" r="6" class="point-student"/><text x="{b}" y="{t0}" class="chart-small">your kernel</text>)"
      R"(<circle cx="{a}" cy="{y1}" r="5" class="point-reference"/><text x="{b}" y="{t1}" class="chart-small">reference</text>)"
      R"(<rect x="{r}" y="{y2r}" width="9" height="9" class="point-cublas"/><text x="{b}" y="{t2}" class="chart-small">cuBLAS</text>)",
      fmt::arg("a", px(legend_x + 5)), fmt::arg("b", px(legend_x + 16)),
      fmt::arg("r", px(legend_x + 0.5)), fmt::arg("y0", px(kTop + 6)),
      fmt::arg("t0", px(kTop + 10)), fmt::arg("y1", px(kTop + 22)), fmt::arg("t1", px(kTop + 26)),
      fmt::arg("y2r", px(kTop + 33.5)), fmt::arg("t2", px(kTop + 42)));
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
  std::tie(low, high) = decades(low / 2, high * 1.5);
  constexpr double kWidth = 760, kLeft = 300, kRight = 90, kTop = 10, kRow = 30;
  const double height = kTop + kRow * static_cast<double>(drawn.size()) + 40;
  const LogAxis x{low, high, kLeft, kWidth - kRight};
  std::string svg = fmt::format(
      R"(<svg class="times-chart" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{d}">)"
      "\n<title>{d}</title>\n",
      fmt::arg("w", px(kWidth)), fmt::arg("h", px(height)), fmt::arg("d", html_escape(caption)));
  const double axis_y = kTop + kRow * static_cast<double>(drawn.size());
  for (double v = low; v <= high * 1.0001; v *= 10) {
    svg += fmt::format(
        R"(<line x1="{x}" y1="{t}" x2="{x}" y2="{b}" class="grid-line"/><text x="{x}" y="{ly}" class="chart-small" text-anchor="middle">{v} ms</text>)"
        "\n",
        fmt::arg("x", px(x.at(v))), fmt::arg("t", px(kTop)), fmt::arg("b", px(axis_y)),
        fmt::arg("ly", px(axis_y + 14)), fmt::arg("v", tick_text(v)));
  }
  for (std::size_t i = 0; i < drawn.size(); ++i) {
    const auto& b = drawn[i];
    const double top = kTop + kRow * static_cast<double>(i) + 5;
    const double end = std::max(x.at(b.median_ms), kLeft + 2);
    svg += fmt::format(
        R"(<text x="{lx}" y="{ty}" class="chart-label" text-anchor="end">{label}</text><rect x="{x}" y="{y}" width="{w}" height="18" class="{cls}"/><text x="{vx}" y="{ty}" class="chart-value">{ms} ms</text>)"
        "\n",
        fmt::arg("lx", px(kLeft - 8)), fmt::arg("ty", px(top + 14)),
        fmt::arg("label", shortened(b.label, 30)), fmt::arg("x", px(kLeft)), fmt::arg("y", px(top)),
        fmt::arg("w", px(end - kLeft)),
        fmt::arg("cls", b.reference ? "bar-reference" : "bar-student"), fmt::arg("vx", px(end + 6)),
        fmt::arg("ms", format_significant(b.median_ms)));
  }
  svg += fmt::format(
      R"(<text x="{}" y="{}" class="chart-axis" text-anchor="middle">median time (log scale)</text>)",
      px((kLeft + kWidth - kRight) / 2), px(axis_y + 34));
  svg += "\n</svg>";
  return svg;
}

}  // namespace reports::detail
