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
harness::ErrorMap grid(std::vector<float> shares) {
  return harness::ErrorMap{64, 64, 16, 16, 4, 4, std::move(shares)};
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
      harness::ErrorMap{256, 1024, 16, 32, 16, 32, std::vector<float>(16 * 32, 0.5f)});
  EXPECT_NE(svg.find(">1024</text>"), std::string::npos);
  EXPECT_NE(svg.find(">256</text>"), std::string::npos);
  EXPECT_NE(svg.find("256 &#215; 1024 matrix: 512 of 512 cells"), std::string::npos);
}

TEST(ErrorMapSvg, RefusesAMapWhoseSizesDoNotAddUp) {
  EXPECT_EQ(error_map_svg(harness::ErrorMap{64, 64, 16, 16, 4, 4, {1, 0}}).find("<svg"),
            std::string::npos);
  EXPECT_EQ(error_map_svg(harness::ErrorMap{0, 64, 16, 16, 0, 4, {}}).find("<svg"),
            std::string::npos);
  EXPECT_EQ(error_map_svg(harness::ErrorMap{1024, 1024, 1, 1, 1024, 1024,
                                            std::vector<float>(1024 * 1024, 1.0f)})
                .find("<svg"),
            std::string::npos);
}

TEST(SpeedChartSvg, DrawsBarsThresholdsAndMissingTimings) {
  harness::Timing fast{"4096x4096", "GB/s",         50,   0.4,  0.4,  0.5,   0.02,
                       1450,        "cudaMemcpy2D", 0.35, 1600, 0.01, 0.906, 0.7};
  harness::Timing no_reference = fast;
  no_reference.reference_rate = 0;
  const std::vector<reports::detail::SpeedBar> bars{
      {"Fast <copy>", harness::Verdict::pass, &fast},
      {"Not measured", harness::Verdict::not_measured, nullptr},
      {"No reference", harness::Verdict::inconclusive, &no_reference}};
  const auto svg = reports::detail::speed_chart_svg(bars);
  EXPECT_NE(svg.find("1450 GB/s (91%)"), std::string::npos);
  EXPECT_NE(svg.find("1600 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("needs 70%"), std::string::npos);
  EXPECT_NE(svg.find("Fast &lt;copy&gt;"), std::string::npos);
  EXPECT_NE(svg.find("nothing measured (not measured)"), std::string::npos);
  EXPECT_NE(svg.find("no reference rate to compare with"), std::string::npos);
  EXPECT_EQ(count_of(svg, "class=\"threshold-line\""), 2u);  // legend + the measured check
}

}  // namespace
