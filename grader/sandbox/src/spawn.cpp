#include "spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "unique_fd.hpp"

namespace sandbox {
namespace {

// Where the child parks fds while it moves them into place, above any target.
constexpr int kParking = 64;

// What the child reports through the error pipe when a step fails.
enum Step : int { kJoinCgroup, kMoveFds, kLimits, kChdir, kExec };

struct ChildError {
  int step;
  int error;
};

const char* step_words(int step) {
  switch (step) {
    case kJoinCgroup:
      return "joining the run's cgroup";
    case kMoveFds:
      return "setting up its file descriptors";
    case kLimits:
      return "setting its resource limits";
    case kChdir:
      return "changing to the working folder";
    default:
      return "exec";
  }
}

[[noreturn]] void fail_in_child(int error_fd, int step) {
  const ChildError report{step, errno};
  [[maybe_unused]] auto written = ::write(error_fd, &report, sizeof report);
  ::_exit(127);
}

// The child's resource limits and priority (async-signal-safe, like run_child).
void apply_limits(const SpawnSpec& spec, int error_fd) {
  const rlimit no_core{0, 0};
  if (::setrlimit(RLIMIT_CORE, &no_core) != 0) fail_in_child(error_fd, kLimits);
  if (spec.file_size_limit) {
    const rlimit file_size{*spec.file_size_limit, *spec.file_size_limit};
    if (::setrlimit(RLIMIT_FSIZE, &file_size) != 0) fail_in_child(error_fd, kLimits);
  }
  if (spec.process_limit) {
    const rlimit processes{*spec.process_limit, *spec.process_limit};
    if (::setrlimit(RLIMIT_NPROC, &processes) != 0) fail_in_child(error_fd, kLimits);
  }
  // Inherited by bubblewrap and everything the program starts.
  if (spec.nice > 0 && ::setpriority(PRIO_PROCESS, 0, spec.nice) != 0) {
    fail_in_child(error_fd, kLimits);
  }
}

// Everything here is async-signal-safe: no allocation, no locks, no stdio.
[[noreturn]] void run_child(const SpawnSpec& spec, char* const* argv, char* const* envp,
                            int error_fd, pid_t parent) {
  ::setpgid(0, 0);
  // The grader's signal mask and ignored signals must not leak into the program.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &default_action, nullptr);
  // Dies with the thread that started it, should the grader die before it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);

  if (!spec.cgroup_procs.empty()) {
    const int fd = ::open(spec.cgroup_procs.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "0", 1) != 1) fail_in_child(error_fd, kJoinCgroup);
    ::close(fd);
  }

  // Park every source above the targets first, so that no dup2 overwrites a source still needed.
  error_fd = ::fcntl(error_fd, F_DUPFD_CLOEXEC, kParking);
  if (error_fd < 0) ::_exit(127);
  int parked[16];
  const std::size_t count = spec.fds.size();
  if (count > 16) fail_in_child(error_fd, kMoveFds);
  for (std::size_t i = 0; i < count; ++i) {
    parked[i] = ::fcntl(spec.fds[i].source, F_DUPFD_CLOEXEC, kParking);
    if (parked[i] < 0) fail_in_child(error_fd, kMoveFds);
  }
  for (std::size_t i = 0; i < count; ++i) {
    // dup2 leaves the new descriptor open across exec.
    if (::dup2(parked[i], spec.fds[i].target) < 0) fail_in_child(error_fd, kMoveFds);
  }
  int highest = 2;
  for (const auto& fd : spec.fds) highest = fd.target > highest ? fd.target : highest;
  // Whatever else is open (fds another thread made without O_CLOEXEC) closes at exec.
  if (::syscall(SYS_close_range, highest + 1, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */) != 0) {
    for (int fd = highest + 1; fd < 65536; ++fd) {
      if (fd != error_fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
  }

  apply_limits(spec, error_fd);
  if (!spec.workdir.empty() && ::chdir(spec.workdir.c_str()) != 0) {
    fail_in_child(error_fd, kChdir);
  }
  ::execve(spec.path.c_str(), argv, envp);
  fail_in_child(error_fd, kExec);
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

Spawned spawn(const SpawnSpec& spec) {
  const auto argv = pointers(spec.argv);
  const auto envp = pointers(spec.env);
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return {-1, fmt::format("cannot make a pipe: {}", std::strerror(errno))};
  }
  UniqueFd error_read(ends[0]), error_write(ends[1]);

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return {-1, fmt::format("cannot fork: {}", std::strerror(errno))};
  if (pid == 0) run_child(spec, argv.data(), envp.data(), error_write.get(), parent);
  // Also here, so the group exists before the parent might have to kill it.
  ::setpgid(pid, pid);
  error_write.reset();

  // Closed at a successful exec; a report when a step failed.
  ChildError report{};
  ssize_t got = 0;
  do {
    got = ::read(error_read.get(), &report, sizeof report);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return {pid, ""};
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {-1, fmt::format("cannot start {}: {} failed: {}", spec.path, step_words(report.step),
                          std::strerror(report.error))};
}

}  // namespace sandbox
