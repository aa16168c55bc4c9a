// Finding the programs the sandbox itself runs: bubblewrap and setpriv.
#pragma once

#include <string>
#include <string_view>

namespace sandbox {

struct Located {
  std::string path;     // empty when not found
  std::string why_not;  // when not found
};

// LABGRADE_BWRAP when set (a carried binary on a machine without the package), else `bwrap` in
// the grader's PATH, else /usr/bin/bwrap.
Located locate_bwrap();

// setpriv (util-linux), from a system folder, which the sandbox also shows.
Located locate_setpriv();

}  // namespace sandbox
