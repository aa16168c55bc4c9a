#include "common/spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <thread>

#include <fmt/format.h>

namespace common {
namespace {

// Where the child parks descriptors while it moves them into place, above any target.
constexpr int kSpawnParking = 64;
constexpr std::size_t kSpawnMaxFds = 16;

// What the child reports through the error pipe when a step fails.
enum SpawnStep : int { kJoinCgroup, kMoveFds, kLimits, kChdir, kExec };

struct SpawnChildError {
  int step;
  int error;
};

const char* spawn_step_words(int step) {
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
  const SpawnChildError report{step, errno};
  [[maybe_unused]] auto written = ::write(error_fd, &report, sizeof report);
  ::_exit(127);
}

// Closes [from, to]; without close_range (Linux before 5.9), one by one.
void close_between(int from, int to) {
  if (from > to) return;
  if (::syscall(SYS_close_range, static_cast<unsigned>(from), static_cast<unsigned>(to), 0) == 0) {
    return;
  }
  for (int fd = from; fd <= to && fd < 65536; ++fd) ::close(fd);
}

// Every descriptor closed but the sorted `keep` (count of them).
void close_all_but(const int* keep, std::size_t count) {
  int from = 0;
  for (std::size_t i = 0; i < count; ++i) {
    close_between(from, keep[i] - 1);
    from = keep[i] + 1;
  }
  close_between(from, INT_MAX);
}

void sort_small(int* values, std::size_t count) {
  for (std::size_t i = 1; i < count; ++i) {
    for (std::size_t j = i; j > 0 && values[j - 1] > values[j]; --j) {
      const int moved = values[j];
      values[j] = values[j - 1];
      values[j - 1] = moved;
    }
  }
}

// The spec's descriptors in place, every other one closed but the (parked) error pipe, whose
// number is returned.
int place_descriptors(const SpawnSpec& spec, int error_fd) {
  // Park every source above the targets first, so that no dup2 overwrites a source still needed.
  error_fd = ::fcntl(error_fd, F_DUPFD_CLOEXEC, kSpawnParking);
  if (error_fd < 0) ::_exit(127);
  const std::size_t count = spec.fds.size();
  if (count > kSpawnMaxFds) fail_in_child(error_fd, kMoveFds);
  int parked[kSpawnMaxFds];
  for (std::size_t i = 0; i < count; ++i) {
    parked[i] = ::fcntl(spec.fds[i].source, F_DUPFD_CLOEXEC, kSpawnParking);
    if (parked[i] < 0) fail_in_child(error_fd, kMoveFds);
  }
  int keep[kSpawnMaxFds + 1];
  for (std::size_t i = 0; i < count; ++i) {
    // dup2 leaves the new descriptor open across exec.
    if (::dup2(parked[i], spec.fds[i].target) < 0) fail_in_child(error_fd, kMoveFds);
    if (spec.fds[i].close_on_exec && ::fcntl(spec.fds[i].target, F_SETFD, FD_CLOEXEC) != 0) {
      fail_in_child(error_fd, kMoveFds);
    }
    keep[i] = spec.fds[i].target;
  }
  // The parked copies, and whatever else is open (the caller's own descriptors, those another
  // thread made without O_CLOEXEC): closed now, not merely at exec, for `before_exec`'s sake.
  keep[count] = error_fd;
  sort_small(keep, count + 1);
  close_all_but(keep, count + 1);
  return error_fd;
}

// Sets `resource`'s soft and hard limits to `value`, or to the hard limit the process already
// has where that is lower: a process may lower its limits but not raise them, and the lab program
// that starts the launcher runs under the batch sandbox's limits (a launcher asking for more
// output than the sandbox allows got EPERM, and every check failed: CI's Slurm test, 2026-11-28).
bool lower_limit(int resource, rlim_t value) {
  rlimit current{};
  if (::getrlimit(resource, &current) != 0) return false;
  if (current.rlim_max != RLIM_INFINITY && current.rlim_max < value) value = current.rlim_max;
  const rlimit wanted{value, value};
  return ::setrlimit(resource, &wanted) == 0;
}

void set_limits(const SpawnSpec& spec, int error_fd) {
  if (!lower_limit(RLIMIT_CORE, 0)) fail_in_child(error_fd, kLimits);
  if (spec.file_size_limit && !lower_limit(RLIMIT_FSIZE, *spec.file_size_limit)) {
    fail_in_child(error_fd, kLimits);
  }
  if (spec.process_limit && !lower_limit(RLIMIT_NPROC, *spec.process_limit)) {
    fail_in_child(error_fd, kLimits);
  }
  // Inherited by bubblewrap and everything the program starts. Only ever nicer: a process
  // already nicer (the emulated pass's, at 19) may not lower it.
  errno = 0;
  const int now = ::getpriority(PRIO_PROCESS, 0);
  if (spec.nice > 0 && !(errno == 0 && now >= spec.nice) &&
      ::setpriority(PRIO_PROCESS, 0, spec.nice) != 0) {
    fail_in_child(error_fd, kLimits);
  }
}

// Everything here but `before_exec` is async-signal-safe: no allocation, no locks, no stdio.
[[noreturn]] void run_child(const SpawnSpec& spec, char* const* argv, char* const* envp,
                            int error_fd, pid_t parent) {
  if (spec.own_process_group) ::setpgid(0, 0);
  // The caller's signal mask and ignored signals must not leak into the program.
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) ::sigaction(sig, &default_action, nullptr);
  // Dies with the thread that started it, should the caller die before it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);

  if (!spec.cgroup_procs.empty()) {
    const int fd = ::open(spec.cgroup_procs.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, "0", 1) != 1) fail_in_child(error_fd, kJoinCgroup);
    ::close(fd);
  }
  error_fd = place_descriptors(spec, error_fd);
  set_limits(spec, error_fd);
  if (!spec.workdir.empty() && ::chdir(spec.workdir.c_str()) != 0) {
    fail_in_child(error_fd, kChdir);
  }
  if (spec.before_exec) spec.before_exec(spec.before_exec_context);
  ::execve(spec.path.c_str(), argv, envp);
  fail_in_child(error_fd, kExec);
}

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

pid_t fork_with_patience(std::chrono::milliseconds patience, ForkFunction fork_function) {
  const auto give_up = std::chrono::steady_clock::now() + patience;
  auto pause = std::chrono::milliseconds(10);
  for (;;) {
    const pid_t pid = fork_function();
    if (pid >= 0 || errno != EAGAIN || std::chrono::steady_clock::now() >= give_up) return pid;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(500));
    errno = EAGAIN;  // for the caller, should the last try be the one that gives up
  }
}

Spawned spawn(const SpawnSpec& spec) {
  const auto argv = c_strings(spec.argv);
  const auto envp = c_strings(spec.env);
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    return {-1, fmt::format("cannot make a pipe: {}", std::strerror(errno))};
  }
  const pid_t parent = ::getpid();
  const pid_t pid = fork_with_patience(spec.fork_patience);
  if (pid < 0) {
    const int error = errno;
    ::close(ends[0]);
    ::close(ends[1]);
    if (error == EAGAIN) {
      return {-1,
              fmt::format("cannot fork for {:.1f} s: {} (a limit on processes or threads stayed "
                          "reached)",
                          spec.fork_patience.count() / 1000.0, std::strerror(error)),
              error};
    }
    return {-1, fmt::format("cannot fork: {}", std::strerror(error)), error};
  }
  if (pid == 0) run_child(spec, argv.data(), envp.data(), ends[1], parent);
  // Also here, so the group exists before the caller might have to kill it.
  if (spec.own_process_group) ::setpgid(pid, pid);
  ::close(ends[1]);

  // Closed at a successful exec; a report when a step failed.
  SpawnChildError report{};
  ssize_t got = 0;
  do {
    got = ::read(ends[0], &report, sizeof report);
  } while (got < 0 && errno == EINTR);
  ::close(ends[0]);
  if (got <= 0) return {pid, ""};
  ::kill(pid, SIGKILL);  // a process `before_exec` forked reports for the child, which may wait
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {-1, fmt::format("cannot start {}: {} failed: {}", spec.path,
                          spawn_step_words(report.step), std::strerror(report.error))};
}

bool is_executable_file(const std::string& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::string find_in_path(std::string_view name, std::string_view folders) {
  while (true) {
    const auto colon = folders.find(':');
    const std::string_view folder = folders.substr(0, colon);
    if (!folder.empty()) {
      const std::string candidate = (std::filesystem::path(folder) / name).string();
      if (is_executable_file(candidate)) return candidate;
    }
    if (colon == std::string_view::npos) return "";
    folders.remove_prefix(colon + 1);
  }
}

}  // namespace common
