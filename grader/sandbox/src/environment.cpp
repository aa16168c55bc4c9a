#include "environment.hpp"

#include <unistd.h>

#include <algorithm>
#include <string_view>

extern char** environ;  // the grader's own environment

namespace sandbox {

std::vector<std::string> build_environment(
    const std::string& home, const std::string& tmpdir,
    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::pair<std::string, std::string>> vars{
      {"PATH", kSandboxPath}, {"HOME", home}, {"LANG", "C.UTF-8"}, {"TMPDIR", tmpdir}};
  for (const auto& [name, value] : extra) {
    const auto same = [&name](const auto& var) { return var.first == name; };
    if (auto it = std::find_if(vars.begin(), vars.end(), same); it != vars.end()) {
      it->second = value;
    } else {
      vars.emplace_back(name, value);
    }
  }
  std::vector<std::string> entries;
  for (const auto& [name, value] : vars) entries.push_back(name + "=" + value);
  return entries;
}

std::vector<std::string> inherited_environment(
    const std::vector<std::pair<std::string, std::string>>& extra) {
  std::vector<std::string> entries;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text = *entry;
    const auto name = text.substr(0, text.find('='));
    const bool replaced =
        std::any_of(extra.begin(), extra.end(), [&](const auto& var) { return var.first == name; });
    if (!replaced) entries.emplace_back(text);
  }
  for (const auto& [name, value] : extra) entries.push_back(name + "=" + value);
  return entries;
}

std::string path_of(const std::vector<std::string>& environment) {
  for (const auto& entry : environment) {
    if (entry.starts_with("PATH=")) return entry.substr(5);
  }
  return "";
}

}  // namespace sandbox
