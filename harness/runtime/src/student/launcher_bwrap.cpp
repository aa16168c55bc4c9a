#include "launcher_bwrap.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

namespace harness::student {
namespace {

// How long bubblewrap may take to start and end its `--version` before it counts as failed.
constexpr int kProbeMs = 10000;

}  // namespace

std::string find_bwrap(std::string& why_none) {
  if (const char* given = std::getenv("LABGRADE_BWRAP"); given && *given) {
    if (::access(given, X_OK) == 0) return given;
    why_none = fmt::format("LABGRADE_BWRAP names no program ({})", given);
    return "";
  }
  for (const char* path : {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}) {
    if (::access(path, X_OK) == 0) return path;
  }
  why_none = "no bubblewrap on this machine";
  return "";
}

// A read-only view of the machine, no GPU device nodes, no network, its own (empty) process
// namespace, so it can neither see nor trace the lab program, nor write a file anywhere, nor
// outlive it. As nobody, without capabilities. No tmpfs on /tmp: the launcher may live there (a
// build folder under /tmp), and it writes nothing anyway. (cmake/expect_failure.sh's
// bubblewrap_runs_here asks bubblewrap with the same options.)
std::vector<std::string> bwrap_command(const std::string& bwrap, const std::string& program,
                                       int status_fd) {
  std::vector<std::string> command{bwrap,
                                   "--unshare-all",
                                   "--unshare-user",
                                   "--uid",
                                   "65534",
                                   "--gid",
                                   "65534",
                                   "--die-with-parent",
                                   "--new-session",
                                   "--cap-drop",
                                   "ALL",
                                   "--ro-bind",
                                   "/",
                                   "/",
                                   "--dev",
                                   "/dev",
                                   "--proc",
                                   "/proc",
                                   "--chdir",
                                   "/"};
  if (status_fd >= 0) {
    command.insert(command.end(), {"--json-status-fd", std::to_string(status_fd)});
  }
  command.insert(command.end(), {"--", program});
  return command;
}

bool bwrap_ran_program(std::string_view status_json) {
  return status_json.find("\"exit-code\"") != std::string_view::npos;
}

bool bubblewrap_runs_here(const std::string& bwrap) {
  // The launcher's very options, its status fd (on /dev/null) included: a bubblewrap too old for
  // one of them cannot run the launcher either.
  auto command = bwrap_command(bwrap, bwrap, kBwrapStatusFd);
  command.emplace_back("--version");
  std::vector<char*> argv;
  for (auto& word : command) argv.push_back(word.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return false;
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const int null = ::open("/dev/null", O_RDWR);
    for (int fd : {0, 1, 2, kBwrapStatusFd}) ::dup2(null, fd);
    ::syscall(SYS_close_range, 3U, static_cast<unsigned>(kBwrapStatusFd - 1), 0U);
    ::syscall(SYS_close_range, static_cast<unsigned>(kBwrapStatusFd + 1), ~0U, 0U);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  int status = 0;
  for (int waited = 0; waited < kProbeMs; waited += 2) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    ::usleep(2000);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return false;
}

}  // namespace harness::student
