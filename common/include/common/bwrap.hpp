// bubblewrap, as both of its users run it: labgrade's sandbox (grader/sandbox/src/bwrap.cpp, a run
// with binds and a cgroup) and the lab program's launcher (harness/runtime/src/student/
// launcher_bwrap.cpp, a read-only view of the machine). Which bwrap (one search rule), the options
// every run of it starts with, and what its status descriptor and exit status say.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace common {

// The descriptor bubblewrap writes its status on (--json-status-fd) in both: above the program's
// own 0-4. bubblewrap closes it in its child, so the program never holds it.
inline constexpr int kBwrapStatusFd = 5;

// Where bwrap is looked for after PATH, in this order.
inline constexpr std::string_view kBwrapFixedPaths[] = {"/usr/bin/bwrap", "/usr/local/bin/bwrap",
                                                        "/bin/bwrap"};

struct BwrapFound {
  std::string path;      // empty when there is none
  std::string why_none;  // when there is none
  bool chosen = false;   // LABGRADE_BWRAP named it (or named no program)
};

// The one rule: LABGRADE_BWRAP when set and not empty (a carried binary on a machine without the
// package; one that names no executable file means none: "LABGRADE_BWRAP names no program (...)",
// which tests use to force the path without bubblewrap), else `bwrap` in PATH, else the first of
// kBwrapFixedPaths that is an executable file; else none: "no bubblewrap on this machine".
BwrapFound find_bwrap();
// The same rule on given values (LABGRADE_BWRAP, or nullptr when unset; PATH; the fixed list).
BwrapFound find_bwrap_in(const char* chosen, std::string_view path,
                         const std::vector<std::string>& fixed_paths);

// Which namespaces the run gets.
enum class BwrapNamespaces {
  all,           // --unshare-all (a user namespace where bubblewrap can make one)
  all_and_user,  // --unshare-all --unshare-user: a user namespace or no run
  all_but_user,  // every other one (root, whose uid switch setpriv makes inside)
};

struct BwrapStart {
  std::string bwrap;
  BwrapNamespaces namespaces = BwrapNamespaces::all;
  std::optional<unsigned> uid;  // --uid and --gid in the user namespace (all_and_user only)
  int status_fd = -1;           // --json-status-fd, or -1 for none
};

// What every run starts with: bwrap itself, the namespaces, dying with its parent
// (--die-with-parent), a session of its own (--new-session, off the caller's terminal: no
// TIOCSTI), and the status descriptor. The caller adds its view of the machine, then finishes.
std::vector<std::string> bwrap_start(const BwrapStart& start);
// A /proc and a /dev of the sandbox's own (after the binds under them).
void add_own_proc_and_dev(std::vector<std::string>& command);
// "--" and the program's argv.
void finish_bwrap_command(std::vector<std::string>& command, const std::vector<std::string>& argv);

// Whether bubblewrap got as far as starting its program (the "child-pid" status document).
bool bwrap_started(std::string_view status_json);
// Whether it ran its program to the end: {"exit-code": N}, written when the program it exec'd
// has ended, and only then. A failure of its own (before starting a child, in the child's setup,
// or the exec) leaves it out.
bool bwrap_ran_program(std::string_view status_json);

// bubblewrap exits with 128 + n when its program was killed by signal n (as shells do; so does the
// launcher's PID namespace init by hand); a program that exits with such a code on purpose reads
// the same.
struct ExitMeaning {
  int exit_code = -1;
  int signal = 0;
};
ExitMeaning decode_bwrap_exit(int code);

}  // namespace common
