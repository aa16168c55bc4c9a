#include "locate.hpp"

#include <string>

#include "common/bwrap.hpp"
#include "common/spawn.hpp"

namespace sandbox {
Located locate_bwrap() {
  common::BwrapFound found = common::find_bwrap();
  if (!found.path.empty()) return {found.path, ""};
  if (found.chosen) return {"", found.why_none};
  return {"", found.why_none +
                  ": install the package bubblewrap, or point LABGRADE_BWRAP to a bwrap binary"};
}

Located locate_setpriv() {
  std::string found = common::find_in_path("setpriv", "/usr/bin:/bin:/usr/sbin:/sbin");
  if (!found.empty()) return {found, ""};
  return {"", "setpriv (package util-linux) was not found in /usr/bin"};
}

}  // namespace sandbox
