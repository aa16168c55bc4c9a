#include "locate.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace sandbox {
namespace fs = std::filesystem;
namespace {

bool is_executable_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string find_in_path(std::string_view name, std::string_view folders) {
  while (true) {
    const auto colon = folders.find(':');
    const std::string_view folder = folders.substr(0, colon);
    if (!folder.empty()) {
      const fs::path candidate = fs::path(folder) / name;
      if (is_executable_file(candidate)) return candidate.string();
    }
    if (colon == std::string_view::npos) return "";
    folders.remove_prefix(colon + 1);
  }
}

Located locate_bwrap() {
  if (const char* chosen = std::getenv("LABGRADE_BWRAP"); chosen && *chosen) {
    if (is_executable_file(chosen)) return {chosen, ""};
    return {"", "LABGRADE_BWRAP=" + std::string(chosen) + " is not an executable file"};
  }
  const char* path = std::getenv("PATH");
  std::string found = find_in_path("bwrap", path ? path : "");
  if (found.empty() && is_executable_file("/usr/bin/bwrap")) found = "/usr/bin/bwrap";
  if (!found.empty()) return {found, ""};
  return {"",
          "bwrap was not found in PATH: install the package bubblewrap, or point LABGRADE_BWRAP "
          "to a bwrap binary"};
}

Located locate_setpriv() {
  std::string found = find_in_path("setpriv", "/usr/bin:/bin:/usr/sbin:/sbin");
  if (!found.empty()) return {found, ""};
  return {"", "setpriv (package util-linux) was not found in /usr/bin"};
}

}  // namespace sandbox
