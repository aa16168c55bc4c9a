// The report's page template and style sheet, compiled into the library from reports/template/
// (see reports/CMakeLists.txt) so a report can be rendered without the source tree.
#pragma once

#include <string_view>

namespace reports::detail {

// The page skeleton with {{placeholders}} that render.cpp fills.
std::string_view report_html_template();

// The style sheet, inlined into the page after the palette (reports/palette.hpp) so the report
// is one self-contained file.
std::string_view report_css();

}  // namespace reports::detail
