#include "locate.hpp"

#include <cstdlib>
#include <string>

#include "path_search.hpp"

namespace sandbox {
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
