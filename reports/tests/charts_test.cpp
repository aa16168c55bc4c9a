// The SVG helpers on their own: the pictures must tell different failures apart.
#include "charts.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

using reports::detail::error_map_svg;

std::size_t count_of(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + needle.size())) {
    ++count;
  }
  return count;
}

// A 4 x 4 grid over a 64 x 64 matrix with the given shares of wrong elements.
contract::ErrorMap grid(std::vector<float> shares) {
  return contract::ErrorMap{64, 64, 16, 16, 4, 4, std::move(shares)};
}

TEST(ErrorMapSvg, TellsAWrongMatrixABorderAndATileApart) {
  const auto all = error_map_svg(grid(std::vector<float>(16, 1.0f)));
  const auto border = error_map_svg(grid({1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1}));
  std::vector<float> one(16, 0.0f);
  one[5] = 1;
  const auto tile = error_map_svg(grid(one));

  // Runs of equal cells in a row are drawn as one rectangle: one per row when all is wrong; the
  // border is a full top and bottom row plus two single cells in each row between.
  EXPECT_EQ(count_of(all, "100% wrong</title>"), 4u);
  EXPECT_NE(all.find("rows 0&#8211;15, columns 0&#8211;63"), std::string::npos);
  EXPECT_EQ(count_of(border, "100% wrong</title>"), 6u);
  EXPECT_EQ(count_of(tile, "100% wrong</title>"), 1u);
  EXPECT_NE(tile.find("rows 16&#8211;31, columns 16&#8211;31"), std::string::npos);
  EXPECT_NE(all, border);
  EXPECT_NE(border, tile);
}

TEST(ErrorMapSvg, ShadesPartlyWrongCellsLighter) {
  const auto svg = error_map_svg(grid({1, 0.0625f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_NE(svg.find("fill=\"#991b1b\""), std::string::npos);  // all wrong: darkest
  EXPECT_NE(svg.find("6.2% wrong</title>"), std::string::npos);
  EXPECT_EQ(count_of(svg, "<rect"), 2u + 1u + 1u + 3u);  // cells, background, frame, legend
}

TEST(ErrorMapSvg, LabelsTheMatrixSize) {
  const auto svg = error_map_svg(
      contract::ErrorMap{256, 1024, 16, 32, 16, 32, std::vector<float>(16 * 32, 0.5f)});
  EXPECT_NE(svg.find(">1024</text>"), std::string::npos);
  EXPECT_NE(svg.find(">256</text>"), std::string::npos);
  EXPECT_NE(svg.find("256 &#215; 1024 matrix: 512 of 512 cells"), std::string::npos);
}

TEST(ErrorMapSvg, RefusesAMapWhoseSizesDoNotAddUp) {
  EXPECT_EQ(error_map_svg(contract::ErrorMap{64, 64, 16, 16, 4, 4, {1, 0}}).find("<svg"),
            std::string::npos);
  EXPECT_EQ(error_map_svg(contract::ErrorMap{0, 64, 16, 16, 0, 4, {}}).find("<svg"),
            std::string::npos);
  EXPECT_EQ(error_map_svg(contract::ErrorMap{1024, 1024, 1, 1, 1024, 1024,
                                             std::vector<float>(1024 * 1024, 1.0f)})
                .find("<svg"),
            std::string::npos);
}

TEST(SpeedChartSvg, DrawsBarsThresholdsAndMissingTimings) {
  contract::Timing fast{"4096x4096", "GB/s",         50,   0.4,  0.4,  0.5,   0.02,
                        1450,        "cudaMemcpy2D", 0.35, 1600, 0.01, 0.906, 0.7};
  contract::Timing no_reference = fast;
  no_reference.reference_rate = 0;
  const std::vector<reports::detail::SpeedBar> bars{
      {"Fast <copy>", contract::Verdict::pass, &fast},
      {"Not measured", contract::Verdict::not_measured, nullptr},
      {"No reference", contract::Verdict::inconclusive, &no_reference}};
  const auto svg = reports::detail::speed_chart_svg(bars);
  EXPECT_NE(svg.find("1450 GB/s (91%)"), std::string::npos);
  EXPECT_NE(svg.find("1600 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("needs 70%"), std::string::npos);
  EXPECT_NE(svg.find("Fast &lt;copy&gt;"), std::string::npos);
  EXPECT_NE(svg.find("nothing measured (not measured)"), std::string::npos);
  EXPECT_NE(svg.find("no reference rate to compare with"), std::string::npos);
  EXPECT_EQ(count_of(svg, "class=\"threshold-line\""), 2u);  // legend + the measured check
}

// A check title longer than the label column wraps between words instead of ending in a stub
// ("matmul_tiled is faster than th..."); only a title longer than three lines is cut, at a word.
TEST(SpeedChartSvg, WrapsLongCheckTitlesInsteadOfCuttingThem) {
  contract::Timing t{"2048", "GFLOP/s", 30,  1.0,  0.9,  1.1,  0.02,
                     9000,   "naive",   1.4, 6500, 0.01, 1.38, 1.2};
  const std::vector<reports::detail::SpeedBar> bars{
      {"matmul_tiled is faster than the naive kernel at width 2048", contract::Verdict::pass, &t},
      {"a title so long that it cannot fit in three lines of the label column beside the bars "
       "however it is wrapped",
       contract::Verdict::pass, &t}};
  const auto svg = reports::detail::speed_chart_svg(bars);
  EXPECT_NE(svg.find(">matmul_tiled is faster than</tspan>"), std::string::npos) << svg;
  EXPECT_NE(svg.find(">the naive kernel at width 2048</tspan>"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("th&#8230;"), std::string::npos);
  EXPECT_EQ(count_of(svg, "&#8230;"), 1u) << "only the title too long for three lines is cut";
  EXPECT_NE(svg.find(">label column beside the bars&#8230;</tspan>"), std::string::npos) << svg;
  // The whole title stays in the group's tooltip.
  EXPECT_NE(svg.find("<title>a title so long that it cannot fit in three lines of the label "
                     "column beside the bars however it is wrapped</title>"),
            std::string::npos);
}

}  // namespace

// ---- diagnosis pictures: tile grid, roofline, times side by side ----------------------------

#include "perf_charts.hpp"
#include "reports/svg.hpp"

namespace {

TEST(ErrorMapSvg, DrawsTheLaunchBlocksOverTheMap) {
  auto map = grid(std::vector<float>(16, 0.0f));
  map.wrong_fraction[0] = 1;
  EXPECT_EQ(error_map_svg(map).find("tile-grid"), std::string::npos);  // no blocks recorded
  map.tile_rows = 32;
  map.tile_cols = 32;
  const auto svg = error_map_svg(map);
  EXPECT_NE(svg.find("class=\"tile-grid\""), std::string::npos);
  EXPECT_NE(svg.find("thread blocks of 32 &#215; 32 elements"), std::string::npos);
  // One interior line each way for 64 / 32: the path has exactly one V and one H segment.
  const auto start = svg.find("class=\"tile-grid\" d=\"");
  const auto path = svg.substr(start, svg.find('"', start + 21) - start);
  EXPECT_EQ(count_of(path, "V"), 1u) << path;
  EXPECT_EQ(count_of(path, "H"), 1u) << path;
}

TEST(Roofline, LogAxisPlacesDecadesEvenly) {
  const reports::svg::LogAxis axis{1, 1000, 0, 300};
  EXPECT_DOUBLE_EQ(axis.at(1), 0);
  EXPECT_DOUBLE_EQ(axis.at(10), 100);
  EXPECT_DOUBLE_EQ(axis.at(1000), 300);
  EXPECT_DOUBLE_EQ(axis.at(1e6), 300);  // clamped
}

contract::Timing tiled_timing() {
  contract::Timing t;
  t.rate_unit = "GFLOP/s";
  t.flops = 2.0 * 4096 * 4096 * 4096;
  t.bytes = 4.0 * 3 * 4096 * 4096;
  t.median_ms = t.flops / 9000e9 * 1e3;
  t.reference_median_ms = t.flops / 5300e9 * 1e3;
  t.memcpy_gbps = 2985;
  t.cublas_gflops = 51100;
  return t;
}

TEST(Roofline, PlacesTheKernelAtItsIntensityAndRate) {
  const auto t = tiled_timing();
  const std::vector<reports::detail::RooflineEntry> entries{{"tiled <4096>", &t}};
  const auto svg = reports::detail::roofline_svg(entries);
  EXPECT_NE(svg.find("data-ai=\"682.7\""), std::string::npos) << svg.substr(0, 400);
  EXPECT_NE(svg.find("data-gflops=\"9000\""), std::string::npos);
  EXPECT_NE(svg.find("memory: 2985 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("cuBLAS: 51100 GFLOP/s"), std::string::npos);
  EXPECT_NE(svg.find("tiled &lt;4096&gt;"), std::string::npos);  // escaped
  EXPECT_EQ(count_of(svg, "class=\"point-student\""), 2u);       // the point and the legend
  // Without the roofs of the run there is no chart.
  auto bare = t;
  bare.memcpy_gbps = 0;
  const std::vector<reports::detail::RooflineEntry> none{{"x", &bare}};
  EXPECT_EQ(reports::detail::roofline_svg(none), "");
}

TEST(Roofline, FasterKernelsSitHigher) {
  auto slow = tiled_timing();
  auto fast = tiled_timing();
  fast.median_ms /= 4;
  const std::vector<reports::detail::RooflineEntry> entries{{"slow", &slow}, {"fast", &fast}};
  const auto svg = reports::detail::roofline_svg(entries);
  const auto cy = [&](std::size_t from) {
    const auto at = svg.find("class=\"point-student\"", from);
    const auto c = svg.rfind("cy=\"", at);
    return std::stod(svg.substr(c + 4));
  };
  const auto first = svg.find("data-ai");
  const auto second = svg.find("data-ai", first + 1);
  EXPECT_LT(cy(second), cy(first));  // SVG y grows downwards
}

TEST(TimesChart, ThreeKernelsSideBySide) {
  const std::vector<reports::detail::TimeBar> bars{{"row per thread", 330, false},
                                                   {"column per thread", 150, false},
                                                   {"naive <element>", 3.2, true}};
  const auto svg = reports::detail::times_svg(bars, "Median times at 2048x2048");
  EXPECT_EQ(count_of(svg, "class=\"bar-student\""), 2u);
  EXPECT_EQ(count_of(svg, "class=\"bar-reference\""), 1u);
  EXPECT_NE(svg.find("naive &lt;element&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">330 ms</text>"), std::string::npos);
  EXPECT_EQ(reports::detail::times_svg({bars.data(), 1}, "one"), "");  // nothing to compare
}

}  // namespace
