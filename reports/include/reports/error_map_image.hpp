// A case's error map as an image file of its own (an SVG document), for the places that show a
// picture but not the report's page: PrairieLearn's results ("images", as a data: URL). It is the
// report's map (reports/src/charts.hpp), with the namespace and the styles a lone file needs.
#pragma once

#include <string>

#include "contract/record.hpp"

namespace reports {

// The SVG document; empty when the map cannot be drawn (its sizes do not add up, or it has too
// many cells), where the report says so in words instead.
std::string error_map_image(const contract::ErrorMap& map);

}  // namespace reports
