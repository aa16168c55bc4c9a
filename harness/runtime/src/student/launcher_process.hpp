// The student's launcher as a child process: started with a socket on fd 3 (and, under the CPU
// emulation, the shared arena on fd 4) and its output in a memory file, in a process group of its
// own; killed with its whole group when done.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace harness::student {

class LauncherProcess {
 public:
  // Starts `path`, inside bubblewrap when `sandbox` and the machine has it; `arena_fd`, when not
  // -1, becomes the launcher's fd 4. Throws std::runtime_error when it cannot be started at all.
  LauncherProcess(const std::string& path, bool sandbox, int arena_fd = -1);
  bool sandboxed() const { return sandboxed_; }
  ~LauncherProcess();
  LauncherProcess(const LauncherProcess&) = delete;
  LauncherProcess& operator=(const LauncherProcess&) = delete;

  // False when the launcher has gone.
  bool send(const nlohmann::json& message);
  // The next message; empty with `error` saying why (it exited, crashed, hung, sent garbage).
  std::optional<nlohmann::json> receive(int deadline_ms, std::string& error);
  // What it printed since the last call, cut to a readable length.
  std::string take_output();

 private:
  std::string why_gone();

  pid_t pid_ = -1;
  int socket_ = -1;
  int output_ = -1;
  long long output_read_ = 0;
  bool sandboxed_ = false;
};

}  // namespace harness::student
