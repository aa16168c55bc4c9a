// The colours of every page the labs write, as CSS custom properties (a :root block), from
// reports/template/palette.css. The report and the class gradebook both start their style sheet
// with it: one source of truth for the palette.
#pragma once

#include <string_view>

namespace reports {

std::string_view palette_css();

}  // namespace reports
