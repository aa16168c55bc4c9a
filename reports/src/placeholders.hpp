// Fills {{name}} placeholders in the page template.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace reports::detail {

using PlaceholderValues = std::map<std::string, std::string, std::less<>>;

// Replaces every {{name}} in `text` with values[name], in a single pass: replacement text is never
// scanned again, so a student's "{{css}}" in a reason stays literal text. A placeholder without a
// value throws std::invalid_argument (the template and render.cpp disagree: a bug, caught by the
// unit tests).
std::string fill_placeholders(std::string_view text, const PlaceholderValues& values);

}  // namespace reports::detail
