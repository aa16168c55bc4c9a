// Starting the child: fork, then only async-signal-safe calls until exec (run() may be called from
// several threads, and a forked child of a threaded process must not allocate or lock).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sandbox {

struct FdMapping {
  int source;  // in the parent
  int target;  // in the child
};

struct SpawnSpec {
  std::string path;               // what to exec: an absolute path
  std::vector<std::string> argv;  // argv[0] included
  std::vector<std::string> env;   // "NAME=value"; the whole environment
  std::string workdir;            // chdir before exec; empty: stay
  // Every fd the child keeps; all others are closed at exec. 0, 1 and 2 must be among them.
  std::vector<FdMapping> fds;
  std::string cgroup_procs;                      // the child joins this cgroup first; empty: none
  std::optional<std::uint64_t> file_size_limit;  // RLIMIT_FSIZE
  std::optional<std::uint64_t> process_limit;    // RLIMIT_NPROC
  int nice = 0;                                  // setpriority when above 0
};

struct Spawned {
  pid_t pid = -1;     // the child, leader of its own process group
  std::string error;  // why it did not start (then pid is -1 and the child is reaped)
};

Spawned spawn(const SpawnSpec& spec);

}  // namespace sandbox
