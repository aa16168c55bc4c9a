// Watching one process of a lab program (batch/run_step.hpp's run_checks): the results channel
// it writes (ready, a check started, a record, all with the process's nonce), the turn it waits
// for, and when to stop it (a check past its limit, a silence). run_checks decides the checks
// from what is observed here once the process has ended.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "batch/run_step.hpp"
#include "contract/record.hpp"
#include "sandbox/core.hpp"

namespace batch {

using Clock = std::chrono::steady_clock;

// What one process run told the grader, gathered while it runs.
struct Observed {
  std::mutex mutex;
  std::map<std::string, contract::CheckRecord> records;
  std::optional<std::string> running;  // started, no record yet
  Clock::time_point running_since;
  Clock::time_point last_news = Clock::now();  // the program's start, or the harness's last line
  // The first look after the spawn restarts last_news: a fork that waited for the host's task
  // limit (common::fork_with_patience) is not the program's silence.
  bool watched_since_spawn = false;
  int foreign_lines = 0;  // lines without the nonce, or malformed
  int duplicate_records = 0;
  std::optional<Clock::time_point> ready_at;  // said it is ready for its turn
  std::optional<Clock::time_point> go_at;     // was told to go
  // The grader's own failure while watching (a thread the host refused it): the run stops and
  // run_checks throws it, rather than charging the program's checks.
  std::exception_ptr grader_failure;
};

// A run's turn (RunRequest::take_turn): asked for on a program's "ready" unless it is held,
// taken on a thread of its own while the supervisor keeps watching the waiting program, and
// given back (RunRequest::end_turn) once the program has recorded every check it was to run.
class Turn {
 public:
  // Takes the turn on a thread of its own (unless held or being taken).
  void ask(const std::function<void()>& take);
  bool held();
  // Gives the turn back through `give_back`, if held.
  void end(const std::function<void()>& give_back);

 private:
  std::mutex mutex_;
  bool held_ = false;
  bool asking_ = false;
  std::jthread taker_;  // joined when run_checks returns
};

// The channel of one process, and what it observed. The watch must outlive the process's run.
class ProcessWatch {
 public:
  ProcessWatch(const RunRequest& request, const std::vector<std::string>& remaining,
               std::function<double(const std::string&)> limit_of, Turn& turn);

  // The channel for sandbox::run: the grader's message with a fresh nonce, and the callbacks
  // that fill `observed` and `stop_check`.
  sandbox::Channel channel();

  Observed observed;       // lock its mutex to read it
  std::string stop_check;  // the check that ran past its limit, if one did

 private:
  void add_turn(sandbox::Channel& channel);
  void read_line(std::string_view text);
  std::optional<std::string> why_stop();

  const RunRequest& request_;
  const std::vector<std::string>& remaining_;
  std::function<double(const std::string&)> limit_of_;
  Turn& turn_;
  std::string nonce_;
};

}  // namespace batch
