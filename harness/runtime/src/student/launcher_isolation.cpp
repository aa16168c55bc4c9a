#include "launcher_isolation.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "launcher_view.hpp"

namespace harness::student {
namespace {

constexpr int kIsolationStepsMs = 10000;
constexpr rlim_t kMaxLauncherProcesses = 1024;
// Rounds of killing what a uid runs, for processes forked while a round went by.
constexpr int kKillRounds = 100;

struct Capabilities {
  std::uint64_t effective = 0;
  std::uint64_t permitted = 0;
  std::uint64_t inheritable = 0;
};

// capget(2) without libcap: the calling thread's sets.
std::optional<Capabilities> own_capabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (::syscall(SYS_capget, &header, data) != 0) return std::nullopt;
  const auto both = [](std::uint32_t low, std::uint32_t high) {
    return low | (static_cast<std::uint64_t>(high) << 32);
  };
  return Capabilities{both(data[0].effective, data[1].effective),
                      both(data[0].permitted, data[1].permitted),
                      both(data[0].inheritable, data[1].inheritable)};
}

bool clear_capabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  return ::syscall(SYS_capset, &header, data) == 0;
}

std::string step_failed(std::string_view what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

// One line to the lab program: "weak why" (isolated all the same), "lost why" (not isolated),
// "init pid" (the PID namespace's init) or "done" (about to exec the launcher).
void report_step(int status, std::string_view word, std::string_view text = {}) {
  std::string line = fmt::format("{} {}", word, text);
  for (char& c : line) c = c == '\n' ? ' ' : c;
  line += '\n';
  // Short lines on a pipe are written whole; the lab program reads until the exec closes it.
  [[maybe_unused]] const auto written = ::write(status, line.data(), line.size());
}

// Every descriptor closed but `keep` (or all, with -1).
void close_all_but(int keep) {
  if (keep < 0) {
    ::syscall(SYS_close_range, 0U, ~0U, 0U);
    return;
  }
  if (keep > 0) ::syscall(SYS_close_range, 0U, static_cast<unsigned>(keep - 1), 0U);
  ::syscall(SYS_close_range, static_cast<unsigned>(keep + 1), ~0U, 0U);
}

// Death by signal N as exit status 128 + N, as bubblewrap reports its child's (a namespace's
// init cannot die of most signals it sends itself, so it cannot pass a signal on as one).
int exit_status_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

// The child, outside the namespace: what the lab program waits for and kills. It holds nothing
// of the launcher's (the socket closes when the launcher goes), only `alive`, whose closing tells
// the init that it has gone.
[[noreturn]] void monitor(pid_t init, int alive) {
  close_all_but(alive);
  int status = 0;
  while (::waitpid(init, &status, 0) < 0) {
    if (errno != EINTR) ::_exit(127);
  }
  ::_exit(exit_status_of(status));
}

// Pid 1 of the namespace: reaps what the launcher leaves and ends when the launcher does; the
// kernel then kills every process left in the namespace.
[[noreturn]] void reap_as_init(pid_t launcher) {
  close_all_but(-1);
  for (;;) {
    int status = 0;
    const pid_t done = ::waitpid(-1, &status, 0);
    if (done == launcher) ::_exit(exit_status_of(status));
    if (done < 0 && errno != EINTR) ::_exit(127);
  }
}

// A new PID namespace (made by unshare in this process) takes its first child as its init: the
// child stays outside as the monitor, the init makes the launcher's view of the machine and forks
// it. Returns in the launcher, pid 2 of the namespace.
void enter_pid_namespace(const std::string& launcher, int status) {
  int alive[2];
  if (::pipe2(alive, O_CLOEXEC) != 0) {
    report_step(status, "lost", step_failed("pipe2"));
    ::_exit(127);
  }
  const pid_t init = ::fork();
  if (init < 0) {
    report_step(status, "lost", step_failed("fork"));
    ::_exit(127);
  }
  if (init > 0) {
    report_step(status, "init", std::to_string(init));
    monitor(init, alive[1]);
  }
  ::close(alive[1]);
  // The init dies with the monitor (the lab program kills the monitor); if the monitor went
  // before this took hold, its end of `alive` is closed already.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  pollfd monitor_gone{alive[0], POLLIN, 0};
  if (::poll(&monitor_gone, 1, 0) != 0) ::_exit(127);
  // What it sees of the machine (launcher_view.hpp), and nothing of the lab program's command line.
  for (const auto& note : make_launcher_view(launcher)) report_step(status, "weak", note);
  forget_command_line();
  const pid_t child = ::fork();
  if (child < 0) {
    report_step(status, "lost", step_failed("fork"));
    ::_exit(127);
  }
  if (child > 0) reap_as_init(child);
}

// "" when `uid` (without groups) may run `path`, checked as that uid with the effective ids
// alone (root's saved ids bring root back); else why not.
std::string why_unrunnable(const std::string& path, unsigned uid) {
  if (::setresgid(-1, uid, -1) != 0 || ::setresuid(-1, uid, -1) != 0) {
    return step_failed("setresuid");
  }
  const bool runnable = ::faccessat(AT_FDCWD, path.c_str(), X_OK, AT_EACCESS) == 0;
  const int error = errno;
  if (::setresuid(-1, 0, -1) != 0 || ::setresgid(-1, 0, -1) != 0) return step_failed("setresuid");
  if (runnable) return "";
  return fmt::format(
      "uid {} cannot run the launcher program {} ({}: is a folder on its path closed to other "
      "users, such as /root?), so it runs as root",
      uid, path, std::strerror(error));
}

// The uid, no groups, no capabilities (the bounding set too, so no exec gains any), no new
// privileges. Each failure is a line on `status`; "done" when all held.
void drop_to_uid(const std::string& launcher, unsigned uid, int status, pid_t parent) {
  // Root's supplementary groups would open root's group-writable files.
  if (::setgroups(0, nullptr) != 0) {
    report_step(status, "lost", step_failed("setgroups"));
    return;
  }
  if (const auto why = why_unrunnable(launcher, uid); !why.empty()) {
    report_step(status, "lost", why);
    return;
  }
  for (int cap = 0; ::prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; ++cap) {
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
      report_step(
          status, "weak",
          fmt::format("the capability bounding set stays ({})", step_failed("PR_CAPBSET_DROP")));
      break;
    }
  }
  // Counted per uid, threads too, and enforced on uids other than root's: a fork bomb stops
  // there instead of taking the machine's pids (the emulator's threads, one per CPU, fit).
  const rlimit processes{kMaxLauncherProcesses, kMaxLauncherProcesses};
  if (::setrlimit(RLIMIT_NPROC, &processes) != 0) {
    report_step(status, "lost", step_failed("RLIMIT_NPROC"));
    return;
  }
  if (::setresgid(uid, uid, uid) != 0) {
    report_step(status, "lost", step_failed("setresgid"));
    return;
  }
  if (::setresuid(uid, uid, uid) != 0) {
    report_step(status, "lost", step_failed("setresuid"));
    return;
  }
  // Leaving uid 0 cleared the permitted and effective sets; the inheritable one stays until
  // cleared.
  clear_capabilities();
  const auto caps = own_capabilities();
  if (!caps || caps->effective != 0 || caps->permitted != 0 || caps->inheritable != 0) {
    report_step(status, "lost", "capabilities remain after the change of uid");
    return;
  }
  // Without it a set-user-ID program (su, a root helper with a bug) would give root back.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    report_step(status, "lost", step_failed("PR_SET_NO_NEW_PRIVS"));
    return;
  }
  // A change of uid clears the parent-death signal: set again, and the lab program checked to be
  // still there (in a PID namespace the namespace's end does this instead).
  if (parent > 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
  }
  if (::chdir("/") != 0) report_step(status, "weak", step_failed("chdir /"));
  report_step(status, "done");
}

// Whether process `pid` is alive (not a zombie) with real uid `uid`, from /proc/<pid>/status.
bool running_as(pid_t pid, unsigned uid) {
  char text[4096];
  const int fd = ::open(fmt::format("/proc/{}/status", pid).c_str(), O_RDONLY | O_CLOEXEC);
  const ssize_t n = fd < 0 ? -1 : ::read(fd, text, sizeof text - 1);
  if (fd >= 0) ::close(fd);
  if (n <= 0) return false;
  text[n] = '\0';
  const char* state = std::strstr(text, "\nState:\t");
  const char* uids = std::strstr(text, "\nUid:\t");
  if (state == nullptr || uids == nullptr || state[8] == 'Z') return false;
  return std::strtoul(uids + 6, nullptr, 10) == uid;
}

}  // namespace

std::string why_not_isolated_by_hand() {
  const auto caps = own_capabilities();
  if (!caps) return step_failed("capget");
  constexpr std::uint64_t needed = (1ULL << CAP_SETUID) | (1ULL << CAP_SETGID);
  if ((caps->effective & needed) == needed) return "";
  return ::geteuid() == 0 ? "the lab program is root without CAP_SETUID and CAP_SETGID"
                          : "the lab program is not root";
}

void guard_lab_program_from_other_uids() {
  // Records and results folders made from now on: not writable by group or others, whatever the
  // umask was (the launcher's uid is another).
  const mode_t old = ::umask(022);
  if ((old | 022) != 022) ::umask(old | 022);
  // lab_main made it so already; a lab program that did not (a test's) must not be readable.
  ::prctl(PR_SET_DUMPABLE, 0);
}

void isolate_by_hand(const std::string& launcher, unsigned uid, int status) {
  const pid_t lab_program = ::getppid();
  // A session of its own, as bubblewrap's --new-session: no controlling terminal to type into
  // (TIOCSTI), and a process group of its own, which the lab program kills.
  if (::setsid() < 0) report_step(status, "weak", step_failed("setsid"));
  const bool own_namespace = ::unshare(CLONE_NEWPID | CLONE_NEWNS) == 0;
  if (!own_namespace) {
    report_step(
        status, "weak",
        fmt::format("no PID namespace of its own ({}): what it leaves running is killed by its "
                    "uid (when the uid is its own) once the lab program is done with it; it sees "
                    "the machine's /proc, /dev (the GPU's device nodes among them) and /tmp",
                    step_failed("unshare")));
  } else {
    if (::unshare(CLONE_NEWNET | CLONE_NEWIPC) != 0) {
      report_step(
          status, "weak",
          fmt::format("the machine's network and IPC stay in reach ({})", step_failed("unshare")));
    }
    enter_pid_namespace(launcher, status);
  }
  drop_to_uid(launcher, uid, status, own_namespace ? 0 : lab_program);
}

Isolation read_isolation_steps(int status, unsigned uid, pid_t& namespace_init) {
  namespace_init = -1;
  std::string text;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(kIsolationStepsMs);
  bool finished = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd ready{status, POLLIN, 0};
    if (left <= 0 || ::poll(&ready, 1, static_cast<int>(left)) == 0) break;
    char buffer[1024];
    const ssize_t n = ::read(status, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      finished = true;
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  Isolation isolation;
  bool done = false;
  std::string lost;
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    const std::string line = text.substr(at, end == std::string::npos ? end : end - at);
    at = end == std::string::npos ? text.size() : end + 1;
    const auto space = line.find(' ');
    const std::string word = line.substr(0, space);
    const std::string rest = space == std::string::npos ? "" : line.substr(space + 1);
    if (word == "weak") {
      isolation.notes.push_back(rest);
    } else if (word == "lost" && lost.empty()) {
      lost = rest;
    } else if (word == "init") {
      namespace_init = static_cast<pid_t>(std::atoi(rest.c_str()));
    } else if (word == "done") {
      done = true;
    }
  }
  if (!lost.empty()) {
    isolation.how = lost;
  } else if (!done) {
    isolation.how = finished ? "its isolation steps did not finish (it could not start)"
                             : "its isolation steps took more than 10 s";
  } else {
    isolation.isolated = true;
    isolation.how = namespace_init > 0 ? fmt::format("uid {} in a PID namespace of its own", uid)
                                       : fmt::format("uid {}", uid);
  }
  return isolation;
}

void kill_processes_of(unsigned uid) {
  // Without a fork (the uid may have taken what the machine allows): each process of the uid that
  // /proc lists, killed through a pidfd; rounds until one finds none.
  for (int round = 0; round < kKillRounds; ++round) {
    DIR* proc = ::opendir("/proc");
    if (proc == nullptr) return;
    int found = 0;
    while (const dirent* entry = ::readdir(proc)) {
      const pid_t pid = static_cast<pid_t>(std::atoi(entry->d_name));
      if (pid <= 0) continue;
      const int process = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
      if (process < 0) continue;
      // The uid read after the pidfd was opened and the process found alive after it: its pid was
      // not reused in between, so the uid is the pidfd's process's.
      if (running_as(pid, uid) && ::syscall(SYS_pidfd_send_signal, process, 0, nullptr, 0) == 0) {
        ::syscall(SYS_pidfd_send_signal, process, SIGKILL, nullptr, 0);
        ++found;
      }
      ::close(process);
    }
    ::closedir(proc);
    if (found == 0) return;
    ::usleep(1000);
  }
}

void report_isolation(const Isolation& isolation) {
  if (!isolation.isolated) {
    std::fprintf(stderr, "note: the launcher runs without a sandbox of its own (%s)\n",
                 isolation.how.c_str());
  }
  for (const auto& note : isolation.notes) {
    std::fprintf(stderr, "note: the launcher's isolation (%s): %s\n", isolation.how.c_str(),
                 note.c_str());
  }
  const char* file = std::getenv("LAB_ISOLATION_FILE");
  if (file == nullptr || *file == '\0') return;
  const int fd = ::open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    std::fprintf(stderr, "note: cannot write LAB_ISOLATION_FILE %s: %s\n", file,
                 std::strerror(errno));
    return;
  }
  const std::string line =
      fmt::format("{}: {}\n", isolation.isolated ? "isolated" : "not isolated", isolation.how);
  [[maybe_unused]] const auto written = ::write(fd, line.data(), line.size());
  ::close(fd);
}

}  // namespace harness::student
