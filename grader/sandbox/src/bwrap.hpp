// The bubblewrap command line for a policy, and what bubblewrap reports back. Pure functions, so
// the argument list is unit-tested without bubblewrap.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bwrap.hpp"
#include "host_layout.hpp"
#include "sandbox/sandbox.hpp"

namespace sandbox {

struct BwrapLaunch {
  std::string bwrap;   // the bwrap executable
  int status_fd = -1;  // --json-status-fd (in the bwrap process), -1 for none
  // When the grader is root: the program runs as this uid and gid, switched to by setpriv inside
  // the sandbox (bubblewrap, as root, makes no user namespace then).
  std::optional<unsigned> uid;
  std::string setpriv;  // setpriv's path, when uid is set
  // The grader is root and the program stays root inside, without capabilities or user namespace.
  bool root_without_caps = false;
};

// The whole command, bwrap first (its start shared with the launcher's: common/bwrap.hpp), the
// program's argv last.
std::vector<std::string> bwrap_command(const BwrapLaunch& launch, const Policy& policy,
                                       const HostLayout& host,
                                       const std::vector<std::string>& argv);

// What bubblewrap's status and exit status say (common/bwrap.hpp).
using common::bwrap_started;
using common::decode_bwrap_exit;
using common::ExitMeaning;

}  // namespace sandbox
