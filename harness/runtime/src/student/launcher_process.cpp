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

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <stdexcept>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "common/bwrap.hpp"
#include "common/spawn.hpp"
#include "launcher/protocol.hpp"
#include "launcher/wire.hpp"
#include "launcher_bwrap.hpp"

namespace harness::student {
namespace {

constexpr rlim_t kMaxOutputBytes = 8 << 20;
constexpr std::size_t kShownOutputBytes = 4000;
// How long a bubblewrap whose launcher never said hello may take to end by itself.
constexpr int kBwrapEndMs = 2000;

// A bare environment: nothing of the lab program's (LAB_GRADER_CHANNEL, seeds) reaches it.
const std::vector<std::string> kLauncherEnvironment{"PATH=/usr/bin:/bin", "LC_ALL=C"};

// The isolation by hand, in the started child before its exec (common::SpawnSpec::before_exec):
// the steps' pipe is its fd kBwrapStatusFd until the exec closes it.
struct ByHand {
  const std::string* launcher;
  unsigned uid;
};

void isolate_before_exec(void* context) {
  const auto* by_hand = static_cast<const ByHand*>(context);
  isolate_by_hand(*by_hand->launcher, by_hand->uid, kBwrapStatusFd);
}

// The launcher's descriptors in the lab program: /dev/null, the output file, the channel's end,
// the arena (or -1) and a status pipe's write end (or -1): bubblewrap's (--json-status-fd) or,
// isolated by hand, the isolation steps' (launcher_isolation.hpp).
struct ChildFds {
  int null_input;
  int output;
  int channel;
  int arena;
  int status;
};

// What starts the launcher: `command` with a bare environment, its descriptors (0 /dev/null, 1 and
// 2 the output file, 3 the channel, 4 the arena, 5 the status pipe) and nothing else of the lab
// program's (no grader channel, no record files), its output capped; `by_hand`, when not null,
// the isolation steps before the exec.
common::SpawnSpec launcher_spec(const std::vector<std::string>& command, const ChildFds& fds,
                                ByHand* by_hand) {
  common::SpawnSpec spec;
  spec.path = command.front();
  spec.argv = command;
  spec.env = kLauncherEnvironment;
  spec.fds = {{fds.null_input, 0},
              {fds.output, 1},
              {fds.output, 2},
              {fds.channel, launcher_protocol::kChannelFd}};
  if (fds.arena >= 0) spec.fds.push_back({fds.arena, launcher_protocol::kArenaFd});
  // bubblewrap's status fd is inherited by bubblewrap, which closes it in its child; the
  // isolation's status pipe stays until the exec closes it.
  if (fds.status >= 0) spec.fds.push_back({fds.status, kBwrapStatusFd, by_hand != nullptr});
  spec.file_size_limit = kMaxOutputBytes;
  // Inside a timed check: a fork the host's task limit refuses fails soon (then the check says
  // whose limit it was, harness/host_refusal.hpp) rather than running out the check's time.
  spec.fork_patience = std::chrono::seconds(2);
  // By hand, isolate_by_hand makes a session of its own (its own process group too), which a
  // process group leader cannot.
  spec.own_process_group = by_hand == nullptr;
  if (by_hand) {
    spec.before_exec = isolate_before_exec;
    spec.before_exec_context = by_hand;
  }
  return spec;
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

void close_open(std::initializer_list<int> fds) {
  for (int fd : fds) {
    if (fd >= 0) ::close(fd);
  }
}

}  // namespace

LauncherProcess::LauncherProcess(const std::string& path, Sandbox sandbox, int arena_fd) {
  if (::access(path.c_str(), X_OK) != 0) {
    throw std::runtime_error(fmt::format("the launcher program was not built ({})", path));
  }
  std::string why_no_bwrap = "bubblewrap cannot run here";
  if (sandbox == Sandbox::bubblewrap_first) {
    const common::BwrapFound found = common::find_bwrap();
    bwrap_ = found.path;
    if (bwrap_.empty()) why_no_bwrap = found.why_none;
  }
  in_bubblewrap_ = !bwrap_.empty();
  const std::string why_not_by_hand = in_bubblewrap_ ? "" : why_not_isolated_by_hand();
  const bool by_hand = !in_bubblewrap_ && why_not_by_hand.empty();
  const std::string absolute = std::filesystem::absolute(path).string();
  std::vector<std::string> command{by_hand ? absolute : path};
  if (in_bubblewrap_) {
    command = bwrap_command(bwrap_, absolute, kBwrapStatusFd);
    isolation_ = {true, "bubblewrap", {}};
  } else if (!by_hand) {
    isolation_ = {false, fmt::format("{}, and {}", why_no_bwrap, why_not_by_hand), {}};
  }
  const unsigned uid = by_hand ? lease_uid_by_hand() : 0;
  // bubblewrap's status, or the isolation steps by hand.
  int status[2] = {-1, -1};
  if ((in_bubblewrap_ || by_hand) && ::pipe2(status, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe2 failed");
  }
  int sockets[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    throw std::runtime_error("socketpair failed");
  }
  output_ = ::memfd_create("launcher-output", MFD_CLOEXEC);
  if (output_ < 0) throw std::runtime_error("memfd_create failed");
  const int null_input = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ByHand by_hand_steps{&absolute, uid};
  const common::SpawnSpec spec =
      launcher_spec(command, {null_input, output_, sockets[1], arena_fd, status[1]},
                    by_hand ? &by_hand_steps : nullptr);
  const common::Spawned child = common::spawn(spec);
  close_open({null_input, sockets[1], status[1]});
  if (child.pid < 0 && child.error_number == EAGAIN) {
    close_open({sockets[0], status[0], output_});
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                            child.error);
  }
  if (child.pid < 0 && !in_bubblewrap_) {
    close_open({sockets[0], status[0], output_});
    throw std::runtime_error(child.error);
  }
  socket_ = sockets[0];
  // A bubblewrap that cannot even be exec'd is bubblewrap's own failure (bubblewrap_failed).
  pid_ = child.pid;
  bwrap_start_error_ = child.error;
  monitored_ = in_bubblewrap_;
  bwrap_status_ = in_bubblewrap_ ? status[0] : -1;
  if (by_hand) take_isolation_steps(status[0], uid);
}

// The uid the launcher runs under when isolated by hand: one of its own, leased.
unsigned LauncherProcess::lease_uid_by_hand() {
  std::string why_no_lease;
  uid_lease_ = common::UidLease::acquire(why_no_lease);
  // nobody: another uid all the same, but shared with other programs, so not killed by uid.
  const unsigned uid = uid_lease_ ? uid_lease_->uid() : 65534;
  if (!uid_lease_) isolation_.notes.push_back("no sandbox uid of its own: " + why_no_lease);
  // A launcher left over from an earlier holder of the uid (a lab program killed outright).
  if (uid_lease_) kill_processes_of(uid);
  guard_lab_program_from_other_uids();
  return uid;
}

void LauncherProcess::take_isolation_steps(int status, unsigned uid) {
  pid_t init = -1;
  auto steps = read_isolation_steps(status, uid, init);
  ::close(status);
  steps.notes.insert(steps.notes.begin(), isolation_.notes.begin(), isolation_.notes.end());
  isolation_ = std::move(steps);
  monitored_ = init > 0;
  namespace_init_ = open_namespace_init(init, pid_);
  // nobody is shared with other programs, so its leftovers cannot be killed by uid; only the end
  // of a PID namespace kills them. Without one, what it leaves runs on: not isolated.
  if (isolation_.isolated && !uid_lease_ && namespace_init_ < 0) {
    isolation_.isolated = false;
    isolation_.how = fmt::format(
        "uid {} (no sandbox uid of its own) without a PID namespace of its own: what it leaves "
        "running could not be killed",
        uid);
  }
}

bool LauncherProcess::bubblewrap_failed() {
  if (in_bubblewrap_ && !bwrap_start_error_.empty()) return true;
  if (!in_bubblewrap_ || bwrap_status_ < 0) return false;
  // bubblewrap's own failure ends it at once with an exit status; one still running, or killed,
  // got as far as the launcher.
  const auto status = wait_for_exit(kBwrapEndMs);
  if (!status || !WIFEXITED(*status)) return false;
  std::string report;
  char buffer[4096];
  ::fcntl(bwrap_status_, F_SETFL, O_NONBLOCK);
  for (ssize_t n; (n = ::read(bwrap_status_, buffer, sizeof buffer)) > 0;) report.append(buffer, n);
  if (common::bwrap_ran_program(report)) return false;
  // It said it did not run the launcher; asked once more on a program of its own (a bubblewrap
  // too old to say "exit-code" would say so of every launcher).
  return !bubblewrap_runs_here(bwrap_);
}

std::optional<int> LauncherProcess::wait_for_exit(int deadline_ms) {
  for (int waited = 0; !wait_status_ && pid_ > 0; waited += 2) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      wait_status_ = status;
      pid_ = -1;
    } else if (waited >= deadline_ms) {
      break;
    } else {
      ::usleep(2000);
    }
  }
  return wait_status_;
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
  if (bwrap_status_ >= 0) ::close(bwrap_status_);
}

bool LauncherProcess::send(const nlohmann::json& message) { return wire::send(socket_, message); }

std::string LauncherProcess::why_gone() {
  // Give a dying launcher a moment to be reaped, so the message says how it ended.
  const auto ended = wait_for_exit(100);
  if (!ended) return "it stopped answering";
  const int status = *ended;
  // bubblewrap (and a PID namespace's init) reports the launcher's death by signal N as its own
  // exit status 128 + N.
  const int signal = WIFSIGNALED(status) ? WTERMSIG(status)
                     : monitored_        ? common::decode_bwrap_exit(WEXITSTATUS(status)).signal
                                         : 0;
  if (signal == 0) return fmt::format("it exited with status {}", WEXITSTATUS(status));
  if (signal == SIGSEGV) {
    return "it crashed (segmentation fault: host code read memory it does not own, "
           "perhaps a device pointer)";
  }
  if (signal == SIGXFSZ) return "it printed more than 8 MiB and was stopped";
  return fmt::format("it was killed by signal {} ({})", signal, ::strsignal(signal));
}

std::optional<nlohmann::json> LauncherProcess::receive(int deadline_ms, std::string& error) {
  std::string wire_error;
  auto message = wire::receive(socket_, deadline_ms, wire_error);
  if (message) return message;
  if (wire_error == "no answer in time") {
    error = fmt::format("it did not return within {} s (an endless loop in host code?)",
                        deadline_ms / 1000);
    // Never with a reaped pid (-1): kill(-1) would reach every process this one may signal.
    if (pid_ > 0) {
      ::kill(-pid_, SIGKILL);
      ::kill(pid_, SIGKILL);
    }
  } else if (wire_error == "the other side closed the connection") {
    error = why_gone();
  } else {
    error = "it sent a malformed message (" + wire_error + ")";
    if (pid_ > 0) ::kill(-pid_, SIGKILL);
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
