// The launcher's bubblewrap sandbox (the student's code, apart from the lab program): its command
// line, and whether bubblewrap can run it on this machine. Here, below both of its users, so that
// the lab program (harness/runtime/src/student/launcher_process.cpp) builds the sandbox and
// `labcheck expect` (grader/src/expect_command.cpp) asks whether it runs here with the very same
// options.
#pragma once

#include <string>
#include <vector>

#include "common/bwrap.hpp"

namespace common {

// `program` (absolute) in a sandbox of its own; with `status_fd` >= 0, bubblewrap reports on it.
std::vector<std::string> launcher_bwrap_command(const std::string& bwrap,
                                                const std::string& program, int status_fd);

// Whether bubblewrap can run here, asked of bubblewrap alone: the launcher's sandbox around
// bubblewrap's own `--version`, which must exit 0. Nothing of the student's runs in it.
bool bubblewrap_runs_here(const std::string& bwrap);

}  // namespace common
