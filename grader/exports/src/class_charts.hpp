// Inline SVG for the class page: no scripts, fonts or images. Inline in HTML, so no xmlns.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "exports/stats.hpp"

namespace exports::detail {

// HTML: a small horizontal bar showing a share (0..1); `label` (escaped here) names it for screen
// readers.
std::string share_bar_svg(double share, std::string_view label, int width = 120);

// HTML: students per score band as columns with their counts, each bar carrying data-count.
std::string histogram_svg(std::span<const HistogramBin> bins, std::size_t students);

}  // namespace exports::detail
