#include "class_charts.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "reports/html.hpp"
#include "reports/svg.hpp"

namespace exports::detail {
namespace {

using reports::svg::px;

// "0–9%", ..., "90–100%": the band's whole percentages.
std::string band_label(const HistogramBin& bin, bool last) {
  const long from = std::lround(bin.from_share * 100);
  const long to = std::lround(bin.to_share * 100);
  return last ? fmt::format("{}\u2013{}%", from, to) : fmt::format("{}\u2013{}%", from, to - 1);
}

}  // namespace

std::string share_bar_svg(double share, std::string_view label, int width) {
  share = std::isfinite(share) ? std::clamp(share, 0.0, 1.0) : 0.0;
  return reports::svg::open_tag("share-bar", std::to_string(width), "10",
                                reports::html_escape(label)) +
         fmt::format(R"(<rect class="bar-track" x="0" y="0" width="{w}" height="10" rx="5"/>)"
                     R"(<rect class="{cls}" x="0" y="0" width="{fill}" height="10" rx="5"/></svg>)",
                     fmt::arg("w", width), fmt::arg("cls", share >= 1 ? "bar-full" : "bar-fill"),
                     fmt::arg("fill", px(share * width)));
}

std::string histogram_svg(std::span<const HistogramBin> bins, std::size_t students) {
  constexpr double kLeft = 44, kTop = 16, kPlotH = 180, kBottom = 44, kBarGap = 8;
  const double slot = bins.size() > 12 ? 48 : 80;
  const double plot_w = slot * static_cast<double>(std::max<std::size_t>(bins.size(), 1));
  const double width = kLeft + plot_w + 12;
  const double height = kTop + kPlotH + kBottom;
  std::size_t top = 1;
  for (const auto& bin : bins) top = std::max(top, bin.count);
  // Whole-student gridlines: about four of them, at a round step.
  const std::size_t step = std::max<std::size_t>(1, (top + 3) / 4);
  const std::size_t axis_max = ((top + step - 1) / step) * step;

  std::string svg =
      reports::svg::open_tag("histogram", px(width), px(height),
                             fmt::format("Score distribution of {} students", students));
  svg += '\n';
  for (std::size_t v = 0; v <= axis_max; v += step) {
    const double y = kTop + kPlotH - kPlotH * static_cast<double>(v) / axis_max;
    svg += reports::svg::horizontal_tick(y, kLeft, kLeft + plot_w, kLeft - 6, y + 4,
                                         std::to_string(v));
  }
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const auto& bin = bins[i];
    const double x = kLeft + slot * static_cast<double>(i) + kBarGap / 2;
    const double h = kPlotH * static_cast<double>(bin.count) / axis_max;
    const double y = kTop + kPlotH - h;
    const double middle = x + (slot - kBarGap) / 2;
    const std::string label = band_label(bin, i + 1 == bins.size());
    svg += fmt::format(
        R"(<rect class="{}" x="{}" y="{}" width="{}" height="{}" data-count="{}"><title>{}: {} student{}</title></rect>)",
        i + 1 == bins.size() ? "bar-full" : "bar-fill", px(x), px(y), px(slot - kBarGap), px(h),
        bin.count, label, bin.count, bin.count == 1 ? "" : "s");
    if (bin.count > 0) {
      svg += reports::svg::text(middle, y - 4, "chart-value", std::to_string(bin.count), "middle");
    }
    svg += reports::svg::text(middle, kTop + kPlotH + 16, "chart-small", label, "middle");
    svg += '\n';
  }
  svg += reports::svg::text(kLeft + plot_w / 2, height - 6, "chart-axis",
                            "share of the lab's points", "middle");
  svg += "</svg>";
  return svg;
}

}  // namespace exports::detail
