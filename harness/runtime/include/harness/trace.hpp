// Phase timestamps for cost work: with LABS_TRACE set, each call prints "[trace +12.3 ms] what"
// on stderr, counted from the program's start. Off (and silent) otherwise.
#pragma once

#include <string_view>

namespace harness {

void trace(std::string_view what);

}  // namespace harness
