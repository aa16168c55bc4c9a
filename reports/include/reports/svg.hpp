// The pieces every inline SVG chart is built from: the figure's frame, text, grid lines with their
// tick labels, a log scale, and labels cut or wrapped to fit (SVG text does not wrap). Used by the
// report's charts (reports/src/charts.cpp, perf_charts.cpp) and the class pages' charts
// (grader/exports/src/class_charts.cpp), which keep only what their chart is.
//
// Inline SVG in HTML: no xmlns (the HTML parser supplies the namespace), no scripts, fonts or
// images. Coordinates are written with one decimal (px). Text passed in as `content` or `label`
// must already be escaped; the label helpers below escape what they return.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace reports::svg {

// A coordinate or length as written into the SVG: one decimal ("12.5", "40.0").
std::string px(double value);

// The opening tag: <svg class width height viewBox role="img" aria-label>. The sizes are written
// as given (a chart's px(...), or a whole number for a fixed-size bar).
std::string open_tag(std::string_view css_class, std::string_view width, std::string_view height,
                     std::string_view label);

// A chart's opening: open_tag with px sizes, then a <title> with the same description (for
// screen readers and tooltips), each on its own line.
std::string open_figure(std::string_view css_class, double width, double height,
                        std::string_view description);

// <text x y class [text-anchor]>content</text>; an empty anchor writes no text-anchor.
std::string text(double x, double y, std::string_view css_class, std::string_view content,
                 std::string_view anchor = {});

// <line x1 y1 x2 y2 class/>.
std::string line(double x1, double y1, double x2, double y2, std::string_view css_class);

// <rect x y width height class/>.
std::string rect(double x, double y, double width, double height, std::string_view css_class);

// An axis's title turned to read bottom to top, centred on (x, y).
std::string vertical_title(int x, double y, std::string_view title);

// A vertical grid line at x from top to bottom and its tick label centred below it at label_y;
// one line of output.
std::string vertical_tick(double x, double top, double bottom, double label_y,
                          std::string_view label, std::string_view line_class = "grid-line");

// A horizontal grid line at y from left to right and its tick label ending at label_x, on the
// baseline label_y; one line of output.
std::string horizontal_tick(double y, double left, double right, double label_x, double label_y,
                            std::string_view label);

// A log-log axis from `low` to `high` mapped onto [from_px, to_px].
struct LogAxis {
  double low, high, from_px, to_px;
  double at(double value) const;  // pixel of value (clamped into the axis)
};

// Powers of ten from below `low` to above `high`: a log axis's whole decades.
std::pair<double, double> decades(double low, double high);

// A decade's tick label: "10k", "100", "0.01".
std::string decade_label(double value);

// Escaped text cut to `max_chars` code points, with an ellipsis (&#8230;) when cut.
std::string label_within_chars(std::string_view text, std::size_t max_chars);

// Escaped text cut to `max_bytes` bytes (on a code point boundary), with an ellipsis when cut.
std::string label_within_bytes(std::string_view text, std::size_t max_bytes);

// A label in lines of at most `max_chars` code points, broken between words (a word longer than a
// line is cut into pieces), each line escaped. More than `max_lines` lines: the last one ends in
// an ellipsis.
std::vector<std::string> wrapped_label(std::string_view text, std::size_t max_chars,
                                       std::size_t max_lines);

}  // namespace reports::svg
