// The class page's stylesheet, inlined into every page (it refers to nothing outside itself).
#pragma once

#include <string_view>

namespace exports::detail {

std::string_view gradebook_css();

}  // namespace exports::detail
