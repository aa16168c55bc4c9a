#include "common/launcher_bwrap.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/spawn.hpp"

namespace common {
namespace {

// How long bubblewrap may take to start and end its `--version` before it counts as failed.
constexpr int kProbeMs = 10000;

}  // namespace

// A read-only view of the machine, no GPU device nodes, no network, its own (empty) process
// namespace, so it can neither see nor trace the lab program, nor write a file anywhere, nor
// outlive it. As nobody, without capabilities. No tmpfs on /tmp: the launcher may live there (a
// build folder under /tmp), and it writes nothing anyway. (`labcheck expect` asks bubblewrap with
// the same options through bubblewrap_runs_here.)
std::vector<std::string> launcher_bwrap_command(const std::string& bwrap,
                                                const std::string& program, int status_fd) {
  auto command = bwrap_start({bwrap, BwrapNamespaces::all_and_user, 65534U, status_fd});
  command.insert(command.end(), {"--cap-drop", "ALL", "--ro-bind", "/", "/"});
  add_own_proc_and_dev(command);
  command.insert(command.end(), {"--chdir", "/"});
  finish_bwrap_command(command, {program});
  return command;
}

bool bubblewrap_runs_here(const std::string& bwrap) {
  // The launcher's very options, its status fd (on /dev/null) included: a bubblewrap too old for
  // one of them cannot run the launcher either.
  SpawnSpec spec;
  spec.path = bwrap;
  spec.argv = launcher_bwrap_command(bwrap, bwrap, kBwrapStatusFd);
  spec.argv.emplace_back("--version");
  spec.env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null < 0) return false;
  spec.fds = {{null, 0}, {null, 1}, {null, 2}, {null, kBwrapStatusFd}};
  const Spawned child = spawn(spec);
  ::close(null);
  if (child.pid < 0) return false;
  int status = 0;
  for (int waited = 0; waited < kProbeMs; waited += 2) {
    if (::waitpid(child.pid, &status, WNOHANG) == child.pid) {
      return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    ::usleep(2000);
  }
  ::kill(child.pid, SIGKILL);
  ::waitpid(child.pid, nullptr, 0);
  return false;
}

}  // namespace common
