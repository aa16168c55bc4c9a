// Watching a started child until it ends: its output, the private channel, the time limit and
// should_stop. One thread, poll() with a 10 ms tick.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "sandbox/core.hpp"
#include "unique_fd.hpp"

namespace sandbox {

struct Streams {
  UniqueFd output;        // the child's stdout and stderr
  UniqueFd lines;         // the child's fd 4, when Channel::on_line is set
  UniqueFd input;         // a socket to the child's fd 3, when Channel::input is not empty
  UniqueFd bwrap_status;  // bubblewrap's --json-status-fd
};

struct Supervised {
  int wait_status = 0;
  bool timed_out = false;
  bool stopped = false;
  std::string stop_reason;
  std::string output;
  bool output_truncated = false;
  bool channel_truncated = false;
  std::string bwrap_status;
  double seconds = 0;
};

// Returns once the child is reaped and its pipes are drained (at most 1 s after it ended: a
// grandchild outside the sandbox's namespaces could hold them open). kill_all() must kill the
// child and everything it started; it is called on timeout, on stop, and after the child ends.
Supervised supervise(pid_t child, std::chrono::steady_clock::time_point start, Streams streams,
                     const Channel& channel, double time_limit_s, std::uint64_t output_cap,
                     const std::function<void()>& kill_all);

}  // namespace sandbox
