// run(): prepares the sandbox (bubblewrap's command, uid, cgroup, pipes), starts it, supervises it
// and reads what happened. Every failure before the program runs becomes failed_to_start.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "bwrap.hpp"
#include "environment.hpp"
#include "locate.hpp"
#include "run_cgroup.hpp"
#include "sandbox/sandbox.hpp"
#include "spawn.hpp"
#include "supervise.hpp"
#include "uid_lease.hpp"
#include "unique_fd.hpp"

namespace sandbox {
namespace {

namespace fs = std::filesystem;

// The child's fds: 0 /dev/null, 1 and 2 the output pipe, 3 the input, 4 the line channel; 5 is
// bubblewrap's status (bubblewrap does not pass it on to the program).
constexpr int kInputFd = 3;
constexpr int kLinesFd = 4;
constexpr int kBwrapStatusFd = 5;
constexpr int kSharedMemoryFd = 6;

// Why the sandbox could not be set up; the message is the output of the failed run.
struct SetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

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

// The uid of the sandbox, when the grader is root and setpriv is there to switch to it; then the
// writable binds become that uid's and the read-only ones must be readable by it.
std::unique_ptr<UidLease> lease_uid(const Policy& policy, BwrapLaunch& launch) {
  if (::geteuid() != 0) return nullptr;
  const Located setpriv = locate_setpriv();
  if (setpriv.path.empty()) return nullptr;  // probe() says processes are not capped
  std::string error;
  auto lease = UidLease::acquire(error);
  if (!lease) throw SetupError("no sandbox uid: " + error);
  for (const auto& bind : policy.binds) {
    error = bind.writable ? chown_tree(bind.host, lease->uid()) : unreadable_by_others(bind.host);
    if (!error.empty()) throw SetupError(error);
  }
  launch.uid = lease->uid();
  launch.setpriv = setpriv.path;
  return lease;
}

std::unique_ptr<RunCgroup> make_cgroup(const Policy& policy) {
  const CgroupParent parent = find_cgroup_parent();
  if (parent.kind == CgroupKind::none) return nullptr;  // probe() says memory is not capped
  std::string error;
  auto group = RunCgroup::create(parent, policy.memory_bytes, policy.max_processes, error);
  if (!group) throw SetupError("cannot cap memory: " + error);
  return group;
}

void read_outcome(const Supervised& watched, bool isolated, const RunCgroup* group,
                  Result& result) {
  result.seconds = watched.seconds;
  result.timed_out = watched.timed_out;
  result.stopped = watched.stopped;
  result.stop_reason = watched.stop_reason;
  result.output = watched.output;
  result.output_truncated = watched.output_truncated;
  result.channel_truncated = watched.channel_truncated;
  const int status = watched.wait_status;
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    if (!isolated) {
      result.exit_code = code;
    } else if (!bwrap_started(watched.bwrap_status) && !watched.timed_out && !watched.stopped) {
      result.failed_to_start = true;
      result.output = "sandbox: bubblewrap could not set up the sandbox:\n" + result.output;
    } else {
      const ExitMeaning meaning = decode_bwrap_exit(code);
      result.exit_code = meaning.exit_code;
      result.signal = meaning.signal;
    }
  }
  result.out_of_memory = group && group->oom_killed();
}

// The program's environment: its own (inherit_environment) or a clean one whose HOME is its
// working folder and TMPDIR a writable place.
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

// What starts the program: bubblewrap's command around it, or the program itself, with its limits.
SpawnSpec spawn_spec(const Policy& policy, const std::vector<std::string>& argv,
                     const BwrapLaunch& launch, bool leased_uid, const RunCgroup* group) {
  SpawnSpec spec;
  spec.env = process_environment(policy);
  if (policy.resource_limits) spec.file_size_limit = policy.max_output_bytes;
  // RLIMIT_NPROC counts all processes of a uid: a cap per sandbox only with a uid per sandbox.
  // Without one, and without pids.max, it is still better than nothing for an ordinary user (it
  // does not apply to root).
  if (policy.resource_limits &&
      (leased_uid || (::geteuid() != 0 && !(group && group->caps_processes())))) {
    spec.process_limit = static_cast<std::uint64_t>(policy.max_processes);
  }
  if (group) spec.cgroup_procs = group->procs_file();
  spec.nice = policy.nice;
  if (policy.isolate) {
    spec.path = launch.bwrap;
    spec.argv = bwrap_command(launch, policy, scan_host(), argv);
  } else {
    spec.path =
        argv[0].find('/') != std::string::npos ? argv[0] : find_in_path(argv[0], path_of(spec.env));
    if (spec.path.empty()) throw SetupError(argv[0] + " was not found in PATH");
    spec.argv = argv;
    spec.workdir = visible_path(policy, policy.workdir).string();
  }
  return spec;
}

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

void run_or_throw(const Policy& policy, const std::vector<std::string>& argv,
                  const Channel& channel, Result& result) {
  check_policy(policy, argv);
  const bool isolated = policy.isolate;
  BwrapLaunch launch;
  std::unique_ptr<UidLease> lease;
  if (isolated) {
    const Located bwrap = locate_bwrap();
    if (bwrap.path.empty()) throw SetupError(bwrap.why_not);
    launch.bwrap = bwrap.path;
    launch.status_fd = kBwrapStatusFd;
    if (policy.own_uid) lease = lease_uid(policy, launch);
    launch.root_without_caps = ::geteuid() == 0 && !launch.uid;
  }
  // After the lease: the group is emptied and removed before the uid goes to another sandbox.
  const std::unique_ptr<RunCgroup> group = policy.resource_limits ? make_cgroup(policy) : nullptr;
  SpawnSpec spec = spawn_spec(policy, argv, launch, lease != nullptr, group.get());
  Streams streams;
  ChildEnds ends = connect_child(policy, channel, spec, streams);

  const auto start = std::chrono::steady_clock::now();
  const Spawned child = spawn(spec);
  if (child.pid < 0) throw SetupError(child.error);
  ChildGuard guard(child.pid);
  ends.close_after_start();

  const auto kill_all = [&] {
    ::kill(-child.pid, SIGKILL);
    if (group) group->kill_all();
  };
  const Supervised watched = supervise(child.pid, start, std::move(streams), channel,
                                       policy.time_limit_s, policy.max_output_bytes, kill_all);
  guard.release();
  read_outcome(watched, isolated, group.get(), result);
  if (group) result.memory_cap_bytes = policy.memory_bytes;
}

}  // namespace

Result run(const Policy& policy, const std::vector<std::string>& argv, const Channel& channel) {
  Result result;
  result.time_limit_s = policy.time_limit_s;
  result.output_cap_bytes = policy.max_output_bytes;
  try {
    run_or_throw(policy, argv, channel, result);
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
