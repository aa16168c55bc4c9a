// A student's source must not move its own lines: `#line 1 "fill.cu"` (or a GNU line marker,
// `# 1 "fill.cu"`) would make compute-sanitizer's findings and the emulator's evidence name
// another file, which is charged to nobody ("outside the student's files"). The build refuses a
// source with one, as a compile error at its line.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace batch {

// The 1-based line of the first line-control directive in `source` as the preprocessor sees it:
// a `#` first on its line (after backslash-newline splices, with comments as spaces, outside
// string, character and raw string literals) followed by `line` or a digit. nullopt: none.
std::optional<int> first_line_directive(std::string_view source);

// The build's refusal of `sources` (names in `folder`): "kernel.cu:3: #line ... is not allowed:
// ...", or nullopt when none has a directive.
std::optional<std::string> line_directive_problem(const std::filesystem::path& folder,
                                                  const std::vector<std::string>& sources);

}  // namespace batch
