// The launcher under bubblewrap: where the machine has it, its command line, and how the lab
// program tells bubblewrap's own failure (it cannot run here: inside another sandbox, without user
// namespaces) from the launcher's. Only bubblewrap's word counts for that: the launcher's output
// is the student's, who could print "bwrap: ..." to be started again without the sandbox.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace harness::student {

// The descriptor bubblewrap writes its status on (--json-status-fd): above the launcher's fds 0-4.
// bubblewrap closes it in its child, so the launcher never holds it.
inline constexpr int kBwrapStatusFd = 5;

// bubblewrap, where the machine has it: LABGRADE_BWRAP, or bwrap on the usual paths; "" (and why)
// when there is none. A LABGRADE_BWRAP that names no program means none (a test forces the path
// without bubblewrap so).
std::string find_bwrap(std::string& why_none);

// `program` (absolute) in a sandbox of its own; with `status_fd` >= 0, bubblewrap reports on it.
std::vector<std::string> bwrap_command(const std::string& bwrap, const std::string& program,
                                       int status_fd);

// Whether bubblewrap's status (--json-status-fd) says it ran its program: it writes
// {"exit-code": N} when the program it exec'd has ended, and only then. A failure of its own
// (before starting a child, or in the child's setup, or the exec) leaves it out.
bool bwrap_ran_program(std::string_view status_json);

// Whether bubblewrap can run here, asked of bubblewrap alone: the launcher's sandbox around
// bubblewrap's own `--version`, which must exit 0. Nothing of the student's runs in it.
bool bubblewrap_runs_here(const std::string& bwrap);

}  // namespace harness::student
