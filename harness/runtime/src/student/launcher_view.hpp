// What the launcher isolated by hand sees of the machine (launcher_isolation.hpp): made by the
// init of its PID namespace, still root, in the mount namespace it shares with nothing else. As
// bubblewrap's view: the machine read-only, a /proc of its own, a /dev of its own without the
// GPU's device nodes; and private /tmp and /dev/shm that end with it.
#pragma once

#include <string>
#include <vector>

namespace harness::student {

// Makes the view for `launcher` (an absolute path, still runnable afterwards: a launcher under
// /tmp keeps its folder there, read-only). Returns what it could not do, each a note ("its /dev
// is the machine's (...)"); none of them leaves the launcher able to write the lab program's
// files, which its uid already keeps it from.
std::vector<std::string> make_launcher_view(const std::string& launcher);

// The init is a fork of the lab program: its /proc/1/cmdline, which every process of the
// namespace may read, would show the lab program's command line (a --seed given there). Clears
// it, and names the process "launcher-init".
void forget_command_line();

}  // namespace harness::student
