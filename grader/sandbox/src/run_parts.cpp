#include "run_parts.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

#include "environment.hpp"
#include "unique_fd.hpp"

namespace sandbox {
namespace {

namespace fs = std::filesystem;

FdPair make_pipe() {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw SetupError(errno_text("cannot make a pipe"));
  return {UniqueFd(ends[0]), UniqueFd(ends[1])};
}

// `read` is the child's end, `write` the grader's.
FdPair make_socket_pair() {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    throw SetupError(errno_text("cannot make a socket pair"));
  }
  ::shutdown(ends[0], SHUT_WR);
  return {UniqueFd(ends[0]), UniqueFd(ends[1])};
}

// Kills and reaps the child should anything throw between its start and supervise()'s end.
class ChildGuard {
 public:
  explicit ChildGuard(pid_t pid) : pid_(pid) {}
  ~ChildGuard() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  void release() { pid_ = -1; }

 private:
  pid_t pid_;
};

// The child's ends of its pipes and sockets, kept open until it has started; the grader's ends
// go to the supervisor (Streams).
struct ChildEnds {
  FdPair output, input, lines, status;
  UniqueFd null_input;
  UniqueFd shared_memory;

  // Once the child holds them: end of file then means it (and its children) ended.
  void close_after_start() {
    output.write.reset();
    input.read.reset();
    lines.write.reset();
    status.write.reset();
    null_input.reset();
  }
};

ChildEnds connect_child(const Policy& policy, const Channel& channel, SpawnSpec& spec,
                        Streams& streams) {
  ChildEnds ends;
  ends.output = make_pipe();
  ends.null_input.reset(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!ends.null_input) throw SetupError(errno_text("cannot open /dev/null"));
  spec.fds = {
      {ends.null_input.get(), 0}, {ends.output.write.get(), 1}, {ends.output.write.get(), 2}};
  streams.output = std::move(ends.output.read);
  if (!channel.input.empty()) {
    ends.input = make_socket_pair();
    spec.fds.push_back({ends.input.read.get(), kInputFd});
    streams.input = std::move(ends.input.write);
  }
  if (channel.on_line) {
    ends.lines = make_pipe();
    spec.fds.push_back({ends.lines.write.get(), kLinesFd});
    streams.lines = std::move(ends.lines.read);
  }
  if (policy.shared_memory_bytes > 0) {
    ends.shared_memory.reset(::memfd_create("labs-shared-memory", MFD_CLOEXEC));
    if (!ends.shared_memory || ::ftruncate(ends.shared_memory.get(),
                                           static_cast<off_t>(policy.shared_memory_bytes)) != 0) {
      throw SetupError(errno_text("cannot make the shared memory file"));
    }
    spec.fds.push_back({ends.shared_memory.get(), kSharedMemoryFd});
    spec.env.emplace_back("LABS_SHARED_MEMORY_FD=" + std::to_string(kSharedMemoryFd));
  }
  if (policy.isolate) {
    ends.status = make_pipe();
    spec.fds.push_back({ends.status.write.get(), kBwrapStatusFd});
    streams.bwrap_status = std::move(ends.status.read);
  }
  return ends;
}

}  // namespace

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

void check_policy(const Policy& policy, const std::vector<std::string>& argv) {
  if (argv.empty() || argv[0].empty()) throw SetupError("no program to run");
  if (!(policy.time_limit_s > 0)) throw SetupError("the time limit must be positive");
  if (policy.isolate && policy.inherit_environment) {
    throw SetupError("inherit_environment is only for programs run without isolation");
  }
  if (policy.max_processes < 1) throw SetupError("max_processes must be at least 1");
  for (const auto& bind : policy.binds) {
    if (!bind.inside.is_absolute() || bind.inside == "/") {
      throw SetupError("bind " + bind.host.string() +
                       ": the path inside must be absolute and not /");
    }
    std::error_code ec;
    if (!fs::exists(bind.host, ec)) throw SetupError("bind " + bind.host.string() + ": not found");
  }
}

std::vector<std::string> process_environment(const Policy& policy) {
  const bool isolated = policy.isolate;
  std::string home = visible_path(policy, policy.workdir).string();
  std::string tmpdir = "/tmp";
  if (!isolated) {
    for (const auto& bind : policy.binds) {
      if (bind.writable) {
        tmpdir = bind.host.string();
        break;
      }
    }
  }
  if (home.empty()) home = isolated ? "/" : tmpdir;
  return policy.inherit_environment ? inherited_environment(policy.env)
                                    : build_environment(home, tmpdir, policy.env);
}

void start_program_itself(const Policy& policy, const std::vector<std::string>& argv,
                          SpawnSpec& spec) {
  spec.path = argv[0].find('/') != std::string::npos
                  ? argv[0]
                  : common::find_in_path(argv[0], path_of(spec.env));
  if (spec.path.empty()) throw SetupError(argv[0] + " was not found in PATH");
  spec.argv = argv;
  spec.workdir = visible_path(policy, policy.workdir).string();
}

Supervised start_and_watch(const Policy& policy, const Channel& channel, SpawnSpec spec,
                           const std::function<void()>& kill_more) {
  Streams streams;
  ChildEnds ends = connect_child(policy, channel, spec, streams);

  const Spawned child = spawn(spec);
  if (child.pid < 0) throw SetupError(child.error);
  // After the spawn: a fork that waited for the host's process limit is not the run's time.
  const auto start = std::chrono::steady_clock::now();
  ChildGuard guard(child.pid);
  ends.close_after_start();

  const auto kill_all = [&] {
    ::kill(-child.pid, SIGKILL);
    if (kill_more) kill_more();
  };
  Supervised watched = supervise(child.pid, start, std::move(streams), channel, policy.time_limit_s,
                                 policy.max_output_bytes, kill_all);
  guard.release();
  return watched;
}

void read_process_end(const Supervised& watched, Result& result) {
  result.seconds = watched.seconds;
  result.timed_out = watched.timed_out;
  result.stopped = watched.stopped;
  result.stop_reason = watched.stop_reason;
  result.output = watched.output;
  result.output_truncated = watched.output_truncated;
  result.channel_truncated = watched.channel_truncated;
  const int status = watched.wait_status;
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
}

Result run_guarded(const Policy& policy, const std::function<void(Result&)>& body) {
  Result result;
  result.time_limit_s = policy.time_limit_s;
  result.output_cap_bytes = policy.max_output_bytes;
  try {
    body(result);
  } catch (const std::exception& e) {
    result.failed_to_start = true;
    result.output = std::string("sandbox: ") + e.what() + "\n";
  } catch (...) {
    result.failed_to_start = true;
    result.output = "sandbox: unknown error\n";
  }
  return result;
}

}  // namespace sandbox
