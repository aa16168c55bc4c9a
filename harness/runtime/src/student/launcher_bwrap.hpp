// The launcher under bubblewrap: its command line, and how the lab program tells bubblewrap's own
// failure (it cannot run here: inside another sandbox, without user namespaces) from the
// launcher's. Only bubblewrap's word counts for that: the launcher's output is the student's, who
// could print "bwrap: ..." to be started again without the sandbox. Which bubblewrap, the options
// every run of it starts with and what its status says are common/bwrap.hpp's, labgrade's
// sandbox's too.
#pragma once

#include <string>
#include <vector>

#include "common/launcher_bwrap.hpp"

namespace harness::student {

using common::bubblewrap_runs_here;
using common::kBwrapStatusFd;

// `program` (absolute) in a sandbox of its own; with `status_fd` >= 0, bubblewrap reports on it.
inline std::vector<std::string> bwrap_command(const std::string& bwrap, const std::string& program,
                                              int status_fd) {
  return common::launcher_bwrap_command(bwrap, program, status_fd);
}

}  // namespace harness::student
