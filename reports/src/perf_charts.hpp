// Inline SVG pictures of speed: the roofline (where each kernel sits against the bandwidth and
// cuBLAS measured in the same run) and times side by side (lab 3's row, column and element
// kernels). No scripts or external resources; every text drawn is escaped.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "contract/record.hpp"

namespace reports::detail {

// One speed check on the roofline; its timing must have flops, bytes and memcpy_gbps.
struct RooflineEntry {
  std::string title;
  const contract::Timing* timing = nullptr;
};

// True when a timing can be placed on the roofline.
bool has_roofline_figures(const contract::Timing& timing);

// HTML: GFLOP/s against FLOP per byte (log-log): the memory roof (the bandwidth measured in this
// run times the intensity), the compute roof (the fastest cuBLAS of the run), and for each entry
// the student's kernel, its reference and cuBLAS at that shape. Empty when no entry has figures.
std::string roofline_svg(std::span<const RooflineEntry> entries);

// One bar of a times-side-by-side chart.
struct TimeBar {
  std::string label;
  double median_ms = 0;
  bool reference = false;  // drawn in the reference colour
};

// HTML: median times as horizontal bars on a log scale (they differ a hundredfold in lab 3).
std::string times_svg(std::span<const TimeBar> bars, const std::string& caption);

}  // namespace reports::detail
