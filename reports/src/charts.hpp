// Inline SVG pictures for the report: they need no scripts, fonts or images, so the page stays one
// self-contained file. Every text drawn is escaped here. The SVG is inline HTML, so it carries no
// xmlns attribute (the HTML parser supplies the namespace).
#pragma once

#include <span>
#include <string>

#include "contract/record.hpp"

namespace reports::detail {

// HTML: where a case's wrong elements are. Cells are shaded by their share of wrong elements and
// the axes carry the matrix size, so a wholly wrong matrix, a wrong border and one wrong tile look
// different. A map whose sizes do not add up, or one too large to draw, gives a sentence instead.
std::string error_map_svg(const contract::ErrorMap& map);

// One speed check in the bar chart.
struct SpeedBar {
  std::string title;
  contract::Verdict verdict = contract::Verdict::not_run;
  const contract::Timing* timing = nullptr;  // null: nothing was measured
};

// HTML: the student's rate next to the reference's for every speed check, as a share of the
// reference rate (so checks in GB/s and GFLOP/s share one axis), with each pass threshold marked.
std::string speed_chart_svg(std::span<const SpeedBar> bars);

}  // namespace reports::detail
