// Starting a program (fork and exec), the one way the grader's sandbox (grader/sandbox) and the lab
// program's launcher (harness/runtime/src/student/launcher_process.cpp) start one. The child gets
// exactly the descriptors asked for and the environment given, nothing of the caller's: after the
// fork only async-signal-safe calls until exec (the caller may have threads; a forked child of a
// threaded process must not allocate or lock), except in a `before_exec` step, which is the
// caller's own.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace common {

struct FdMapping {
  int source;  // in the caller
  int target;  // in the child
  // Kept until the exec, which closes it: a pipe to the child's own steps (`before_exec`), whose
  // end of file tells the caller that the program was exec'd.
  bool close_on_exec = false;
};

// fork(), tried again while it fails with EAGAIN, for at most `patience`. EAGAIN is a limit on
// processes or threads (a cgroup's pids.max, the host's threads-max, RLIMIT_NPROC) that other
// programs hold for now: a fork bomb at its sandbox's cap, compute-sanitizer's threads in a dozen
// runs. They end, and a grader that gave up at once would mark an innocent submission "grader
// error" (measured on a GPU host: 3 to 8 of a class of 26 under hosted memcheck). Returns the
// pid (0 in the child), or -1 with errno set once it gives up or fork fails otherwise.
using ForkFunction = pid_t (*)();
pid_t fork_with_patience(std::chrono::milliseconds patience, ForkFunction fork_function = ::fork);
inline constexpr std::chrono::seconds kForkPatience{60};

// The environment variable in which the grader's sandbox tells an isolated program (in a PID
// namespace of its own) its cap on tasks, processes and threads, whatever enforces it: the lab
// program tells its own fork bomb from the host's limit by it (harness/host_refusal.hpp).
inline constexpr const char* kTaskCapVariable = "LABGRADE_TASK_CAP";

struct SpawnSpec {
  std::string path;               // what to exec: an absolute (or relative to the caller) path
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // "NAME=value": the whole environment, nothing inherited
  std::string workdir;            // chdir before exec; empty: stay
  // Every descriptor the child holds (at most 16); every other is closed in the child, whatever
  // its close-on-exec flag. 0, 1 and 2 are the caller's to give (usually among them).
  std::vector<FdMapping> fds;
  // A process group of its own (pid = pgid), made in the child and in the caller, so that the
  // caller can kill the group; false when `before_exec` makes a session of its own instead.
  bool own_process_group = true;
  std::string cgroup_procs;                      // the child joins this cgroup first; empty: none
  std::optional<std::uint64_t> file_size_limit;  // RLIMIT_FSIZE
  std::optional<std::uint64_t> process_limit;    // RLIMIT_NPROC
  int nice = 0;                                  // setpriority when above 0
  // How long a fork the host's task limit refuses is tried again (fork_with_patience).
  std::chrono::milliseconds fork_patience = kForkPatience;
  // Last before the exec, in the child, its descriptors, limits and folder in place (the
  // launcher's isolation by hand). It may fork: the exec happens in whichever process returns.
  void (*before_exec)(void* context) = nullptr;
  void* before_exec_context = nullptr;
};

// Also in every child: signals unblocked and at their defaults, no core files (RLIMIT_CORE 0),
// killed (SIGKILL) when the thread that started it ends, and never started once the caller is gone.
struct Spawned {
  pid_t pid = -1;        // the child
  std::string error;     // why it did not start (then pid is -1 and the child is reaped)
  int error_number = 0;  // the fork's errno when the fork failed (EAGAIN: a limit on tasks)
};

// Returns once the child has exec'd (every copy of its error pipe closed) or failed: "cannot
// start PATH: exec failed: No such file or directory" (or the step that failed: joining the
// cgroup, its descriptors, its limits, its folder).
Spawned spawn(const SpawnSpec& spec);

// A regular file that this process may execute.
bool is_executable_file(const std::string& path);

// The first executable regular file `name` in the ':'-separated folders; empty if none.
std::string find_in_path(std::string_view name, std::string_view folders);

}  // namespace common
