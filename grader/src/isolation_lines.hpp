// The lines a lab program writes to LAB_ISOLATION_FILE, one per launcher it starts: "isolated: how"
// or "not isolated: why" (harness/runtime/src/student/launcher_isolation.hpp). `labcheck run`
// notes an unisolated run on its records; `labcheck expect` holds a red-team case's run to them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace grader {

// What follows `prefix` in the first line that starts with it, else "".
inline std::string first_after(const std::vector<std::string>& lines, std::string_view prefix) {
  for (const auto& line : lines) {
    if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
  }
  return "";
}

// Why a launcher of the run was not isolated ("" : every one was, or nothing was said).
inline std::string why_not_isolated(const std::vector<std::string>& lines) {
  return first_after(lines, "not isolated: ");
}

// How the first launcher isolated was ("bubblewrap", "uid 200123 in a PID namespace ...").
inline std::string how_isolated(const std::vector<std::string>& lines) {
  return first_after(lines, "isolated: ");
}

}  // namespace grader
