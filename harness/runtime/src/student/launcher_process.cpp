#include "launcher_process.hpp"

#include <fcntl.h>
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
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "launcher/protocol.hpp"
#include "launcher/wire.hpp"

namespace harness::student {
namespace {

constexpr rlim_t kMaxOutputBytes = 8 << 20;
constexpr std::size_t kShownOutputBytes = 4000;

// bubblewrap, where the machine has it: LABGRADE_BWRAP, or bwrap on the usual paths.
std::string find_bwrap() {
  if (const char* given = std::getenv("LABGRADE_BWRAP"); given && *given) return given;
  for (const char* path : {"/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"}) {
    if (::access(path, X_OK) == 0) return path;
  }
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

[[noreturn]] void exec_child(const std::vector<std::string>& command, int channel, int output,
                             int arena) {
  ::setpgid(0, 0);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  // Out of the way first (above every target), so that no dup2 below overwrites a source.
  const auto lift = [](int fd) { return fd < 0 ? fd : ::fcntl(fd, F_DUPFD_CLOEXEC, 100); };
  channel = lift(channel);
  output = lift(output);
  arena = lift(arena);
  const int null_in = ::open("/dev/null", O_RDONLY);
  ::dup2(null_in, 0);
  ::dup2(output, 1);
  ::dup2(output, 2);
  ::dup2(channel, launcher_protocol::kChannelFd);
  if (arena >= 0) ::dup2(arena, launcher_protocol::kArenaFd);
  // Nothing else of the lab program's is inherited: no grader channel, no record files.
  ::syscall(SYS_close_range, launcher_protocol::kArenaFd + (arena >= 0 ? 1 : 0), ~0U, 0);
  const rlimit output_limit{kMaxOutputBytes, kMaxOutputBytes};
  ::setrlimit(RLIMIT_FSIZE, &output_limit);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
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

}  // namespace

LauncherProcess::LauncherProcess(const std::string& path, bool sandbox, int arena_fd) {
  if (::access(path.c_str(), X_OK) != 0) {
    throw std::runtime_error(fmt::format("the launcher program was not built ({})", path));
  }
  const std::string bwrap = sandbox ? find_bwrap() : "";
  sandboxed_ = !bwrap.empty();
  const auto command = sandboxed_ ? bwrap_command(bwrap, std::filesystem::absolute(path).string())
                                  : std::vector<std::string>{path};
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
    exec_child(command, sockets[1], output_, arena_fd);
  }
  ::setpgid(pid_, pid_);
  ::close(sockets[1]);
  socket_ = sockets[0];
}

LauncherProcess::~LauncherProcess() {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
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
      // bubblewrap reports its child's death by signal N as its own exit status 128 + N.
      const bool killed =
          WIFSIGNALED(status) || (sandboxed_ && WIFEXITED(status) && WEXITSTATUS(status) > 128 &&
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
