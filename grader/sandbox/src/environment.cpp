#include "environment.hpp"

#include <algorithm>

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

std::string path_of(const std::vector<std::string>& environment) {
  for (const auto& entry : environment) {
    if (entry.starts_with("PATH=")) return entry.substr(5);
  }
  return "";
}

}  // namespace sandbox
