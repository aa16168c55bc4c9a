// Finding the programs the sandbox itself runs: bubblewrap and setpriv.
#pragma once

#include <string>
#include <string_view>

namespace sandbox {

struct Located {
  std::string path;     // empty when not found
  std::string why_not;  // when not found
};

// bubblewrap by the one rule of common/bwrap.hpp (LABGRADE_BWRAP, PATH, the usual paths), the
// lab program's launcher's too; when there is none, what to do about it.
Located locate_bwrap();

// setpriv (util-linux), from a system folder, which the sandbox also shows.
Located locate_setpriv();

}  // namespace sandbox
