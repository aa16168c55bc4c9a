#include "launcher_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "launcher/protocol.hpp"
#include "launcher/wire.hpp"

namespace harness::student {
namespace {

constexpr rlim_t kMaxOutputBytes = 8 << 20;
constexpr std::size_t kShownOutputBytes = 4000;

// bubblewrap, where the machine has it: LABGRADE_BWRAP, or bwrap on the usual paths; "" (and
// why) when there is none. A LABGRADE_BWRAP that names no program means none (a test forces the
// path without bubblewrap so).
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

// The launcher in a sandbox of its own: a read-only view of the machine, no GPU device nodes, no
// network, its own (empty) process namespace, so it can neither see nor trace the lab program,
// nor write a file anywhere, nor outlive it. As nobody, without capabilities.
std::vector<std::string> bwrap_command(const std::string& bwrap, const std::string& path) {
  // No tmpfs on /tmp: the launcher may live there (a build folder under /tmp), and it writes
  // nothing anyway.
  return {bwrap,
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
          "/",
          "--",
          path};
}

// Isolated by hand (launcher_isolation.hpp): the uid it becomes and the pipe its steps are
// reported on.
struct ByHand {
  unsigned uid = 0;
  int status = -1;
};

[[noreturn]] void exec_child(const std::vector<std::string>& command, int channel, int output,
                             int arena, const ByHand* by_hand) {
  // By hand, isolate_by_hand makes a session of its own (its own process group too).
  if (!by_hand) ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Out of the way first (above every target), so that no dup2 below overwrites a source.
  const auto lift = [](int fd) { return fd < 0 ? fd : ::fcntl(fd, F_DUPFD_CLOEXEC, 100); };
  channel = lift(channel);
  output = lift(output);
  arena = lift(arena);
  const int status = by_hand ? lift(by_hand->status) : -1;
  const int null_in = ::open("/dev/null", O_RDONLY);
  ::dup2(null_in, 0);
  ::dup2(output, 1);
  ::dup2(output, 2);
  ::dup2(channel, launcher_protocol::kChannelFd);
  if (arena >= 0) ::dup2(arena, launcher_protocol::kArenaFd);
  // Nothing else of the lab program's is inherited: no grader channel, no record files. The
  // isolation's status pipe stays until the exec closes it.
  const unsigned first_closed = launcher_protocol::kArenaFd + (arena >= 0 ? 1 : 0);
  if (status >= 0) {
    ::syscall(SYS_close_range, first_closed, static_cast<unsigned>(status - 1), 0);
    ::syscall(SYS_close_range, static_cast<unsigned>(status + 1), ~0U, 0);
  } else {
    ::syscall(SYS_close_range, first_closed, ~0U, 0);
  }
  const rlimit output_limit{kMaxOutputBytes, kMaxOutputBytes};
  ::setrlimit(RLIMIT_FSIZE, &output_limit);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (by_hand) isolate_by_hand(command.front(), by_hand->uid, status);
  std::vector<char*> argv;
  for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  // A bare environment: nothing of the grader's (LAB_GRADER_CHANNEL, seeds) reaches it.
  char* const envp[] = {const_cast<char*>("PATH=/usr/bin:/bin"), const_cast<char*>("LC_ALL=C"),
                        nullptr};
  ::execve(argv[0], argv.data(), envp);
  std::fprintf(stderr, "cannot start the launcher: %s\n", std::strerror(errno));
  ::_exit(127);
}

// A pidfd of `pid` when it is the child of `parent` (the namespace's init, the monitor's child):
// checked after opening, so that a pid used again since cannot be mistaken for it.
int open_namespace_init(pid_t pid, pid_t parent) {
  if (pid <= 0) return -1;
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0) return -1;
  std::ifstream status_file(fmt::format("/proc/{}/status", pid));
  std::string line;
  while (std::getline(status_file, line)) {
    if (line.rfind("PPid:", 0) == 0 && std::atoi(line.c_str() + 5) == parent) return fd;
  }
  ::close(fd);
  return -1;
}

}  // namespace

LauncherProcess::LauncherProcess(const std::string& path, Sandbox sandbox, int arena_fd) {
  if (::access(path.c_str(), X_OK) != 0) {
    throw std::runtime_error(fmt::format("the launcher program was not built ({})", path));
  }
  std::string why_no_bwrap = "bubblewrap cannot run here";
  const std::string bwrap = sandbox == Sandbox::bubblewrap_first ? find_bwrap(why_no_bwrap) : "";
  in_bubblewrap_ = !bwrap.empty();
  const std::string why_not_by_hand = in_bubblewrap_ ? "" : why_not_isolated_by_hand();
  const bool by_hand = !in_bubblewrap_ && why_not_by_hand.empty();
  const std::string absolute = std::filesystem::absolute(path).string();
  std::vector<std::string> command{by_hand ? absolute : path};
  if (in_bubblewrap_) {
    command = bwrap_command(bwrap, absolute);
    isolation_ = {true, "bubblewrap", {}};
  } else if (!by_hand) {
    isolation_ = {false, fmt::format("{}, and {}", why_no_bwrap, why_not_by_hand), {}};
  }
  ByHand hand;
  int status[2] = {-1, -1};
  if (by_hand) {
    std::string why_no_lease;
    uid_lease_ = common::UidLease::acquire(why_no_lease);
    // nobody: another uid all the same, but shared with other programs, so not killed by uid.
    hand.uid = uid_lease_ ? uid_lease_->uid() : 65534;
    if (!uid_lease_) isolation_.notes.push_back("no sandbox uid of its own: " + why_no_lease);
    // A launcher left over from an earlier holder of the uid (a lab program killed outright).
    if (uid_lease_) kill_processes_of(hand.uid);
    guard_lab_program_from_other_uids();
    if (::pipe2(status, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    hand.status = status[1];
  }
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    throw std::runtime_error("socketpair failed");
  }
  output_ = ::memfd_create("launcher-output", MFD_CLOEXEC);
  if (output_ < 0) throw std::runtime_error("memfd_create failed");
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // dup2 clears close-on-exec on the copies the child keeps.
    exec_child(command, sockets[1], output_, arena_fd, by_hand ? &hand : nullptr);
  }
  // By hand the child makes a session of its own, which a process group leader cannot.
  if (!by_hand) ::setpgid(pid_, pid_);
  ::close(sockets[1]);
  socket_ = sockets[0];
  monitored_ = in_bubblewrap_;
  if (by_hand) {
    ::close(status[1]);
    pid_t init = -1;
    auto steps = read_isolation_steps(status[0], hand.uid, init);
    ::close(status[0]);
    steps.notes.insert(steps.notes.begin(), isolation_.notes.begin(), isolation_.notes.end());
    isolation_ = std::move(steps);
    monitored_ = init > 0;
    namespace_init_ = open_namespace_init(init, pid_);
  }
}

LauncherProcess::~LauncherProcess() {
  if (namespace_init_ >= 0) {
    // The namespace's init first, and until it is gone: the kernel has then killed every process
    // in the namespace, so nothing of the launcher's runs once this returns.
    ::syscall(SYS_pidfd_send_signal, namespace_init_, SIGKILL, nullptr, 0);
    pollfd gone{namespace_init_, POLLIN, 0};
    ::poll(&gone, 1, 5000);
    ::close(namespace_init_);
  }
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  // Without a PID namespace, what it left running (a setsid()ed daemon) is found by its uid.
  if (uid_lease_) kill_processes_of(uid_lease_->uid());
  if (socket_ >= 0) ::close(socket_);
  if (output_ >= 0) ::close(output_);
}

bool LauncherProcess::send(const nlohmann::json& message) { return wire::send(socket_, message); }

std::string LauncherProcess::why_gone() {
  int status = 0;
  // Give a dying launcher a moment to be reaped, so the message says how it ended.
  for (int i = 0; i < 50; ++i) {
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      // bubblewrap (and a PID namespace's init) reports the launcher's death by signal N as
      // its own exit status 128 + N.
      const bool killed =
          WIFSIGNALED(status) || (monitored_ && WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
                                  WEXITSTATUS(status) < 128 + NSIG);
      if (!killed) return fmt::format("it exited with status {}", WEXITSTATUS(status));
      const int signal = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status) - 128;
      if (signal == SIGSEGV) {
        return "it crashed (segmentation fault: host code read memory it does not own, "
               "perhaps a device pointer)";
      }
      if (signal == SIGXFSZ) return "it printed more than 8 MiB and was stopped";
      return fmt::format("it was killed by signal {} ({})", signal, ::strsignal(signal));
    }
    ::usleep(2000);
  }
  return "it stopped answering";
}

std::optional<nlohmann::json> LauncherProcess::receive(int deadline_ms, std::string& error) {
  std::string wire_error;
  auto message = wire::receive(socket_, deadline_ms, wire_error);
  if (message) return message;
  if (wire_error == "no answer in time") {
    error = fmt::format("it did not return within {} s (an endless loop in host code?)",
                        deadline_ms / 1000);
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
  } else if (wire_error == "the other side closed the connection") {
    error = why_gone();
  } else {
    error = "it sent a malformed message (" + wire_error + ")";
    ::kill(-pid_, SIGKILL);
  }
  return std::nullopt;
}

std::string LauncherProcess::take_output() {
  struct stat info {};
  if (::fstat(output_, &info) != 0 || info.st_size <= output_read_) return "";
  const long long available = info.st_size - output_read_;
  const std::size_t shown = std::min<std::size_t>(available, kShownOutputBytes);
  std::string text(shown, '\0');
  const ssize_t n = ::pread(output_, text.data(), shown, output_read_);
  output_read_ = info.st_size;
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  if (static_cast<long long>(shown) < available) {
    text += fmt::format("\n... ({} more bytes not shown)\n", available - shown);
  }
  return text;
}

}  // namespace harness::student
