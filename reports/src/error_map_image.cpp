#include "reports/error_map_image.hpp"

#include <string_view>

#include "charts.hpp"

namespace reports {
namespace {

// The report's style sheet gives the map's text its look; a lone file carries the few rules the
// map uses, in the palette's colours (template/palette.css: --text, --muted).
constexpr std::string_view kStyle =
    "<style>text { font-family: system-ui, sans-serif; } "
    ".chart-small { font-size: 11px; fill: #64748b; } "
    ".chart-axis { font-size: 12px; fill: #1e293b; font-weight: 600; }</style>\n";

constexpr std::string_view kOpening = "<svg ";

}  // namespace

std::string error_map_image(const contract::ErrorMap& map) {
  std::string svg = detail::error_map_svg(map);
  // A map that cannot be drawn comes back as a sentence of HTML, not a picture.
  if (!svg.starts_with(kOpening)) return {};
  svg.insert(kOpening.size(), R"(xmlns="http://www.w3.org/2000/svg" )");
  svg.insert(svg.find('>') + 1, "\n" + std::string(kStyle));
  return svg;
}

}  // namespace reports
