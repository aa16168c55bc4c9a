// The student's launcher as a child process: started with a socket on fd 3 (and, under the CPU
// emulation, the shared arena on fd 4) and its output in a memory file, in a process group of its
// own; killed with its whole group when done. Isolated from the lab program by bubblewrap where
// the machine has it, else, when the lab program is root, by hand (launcher_isolation.hpp).
#pragma once

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "common/uid_lease.hpp"
#include "launcher_isolation.hpp"

namespace harness::student {

// How the launcher may be isolated: bubblewrap first (by hand where the machine has none), or
// without bubblewrap (it was tried and cannot run here).
enum class Sandbox { bubblewrap_first, without_bubblewrap };

class LauncherProcess {
 public:
  // Starts `path` isolated as `sandbox` allows; `arena_fd`, when not -1, becomes the launcher's
  // fd 4. Throws std::runtime_error when it cannot be started at all.
  LauncherProcess(const std::string& path, Sandbox sandbox, int arena_fd = -1);
  // Whether it runs under bubblewrap.
  bool in_bubblewrap() const { return in_bubblewrap_; }
  // After a launcher under bubblewrap that never said hello: whether bubblewrap itself failed
  // (it cannot run here), decided from bubblewrap alone (its --json-status-fd report, then a run of
  // its own --version), never from the launcher's output. Only then may it start without it.
  bool bubblewrap_failed();
  const Isolation& isolation() const { return isolation_; }
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
  // The isolation steps' report by hand (launcher_isolation.hpp), from the pipe `status`.
  unsigned lease_uid_by_hand();
  void take_isolation_steps(int status, unsigned uid);
  // pid_'s wait status once it has ended (reaped within `deadline_ms`), else empty.
  std::optional<int> wait_for_exit(int deadline_ms);

  pid_t pid_ = -1;
  int socket_ = -1;
  int output_ = -1;
  long long output_read_ = 0;
  bool in_bubblewrap_ = false;
  std::string bwrap_;               // bubblewrap's path, when in it
  std::string bwrap_start_error_;   // why bubblewrap could not even be started
  int bwrap_status_ = -1;           // the read end of its --json-status-fd
  std::optional<int> wait_status_;  // pid_'s, once reaped
  // Its exit status is a monitor's (bubblewrap's, or the PID namespace's init's): death by
  // signal N reads as exit status 128 + N.
  bool monitored_ = false;
  Isolation isolation_;
  std::unique_ptr<common::UidLease> uid_lease_;  // the launcher's uid, when isolated by hand
  int namespace_init_ = -1;                      // a pidfd of its PID namespace's init, or -1
};

}  // namespace harness::student
