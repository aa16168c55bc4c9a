#include "batch/run_step.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "batch/visible_devices.hpp"
#include "contract/grader_channel.hpp"

namespace batch {
namespace {

using contract::CheckRecord;
using contract::Verdict;
using Clock = std::chrono::steady_clock;

constexpr double kDefaultCheckSeconds = 120;

double check_seconds(const contract::LabSpec& spec, const std::string& id, double override_s) {
  if (override_s > 0) return override_s;
  const auto* check = spec.find(id);
  if (!check) return kDefaultCheckSeconds;
  const auto it = check->params.find("timeout_s");
  return it != check->params.end() && it->is_number() && it->get<double>() > 0
             ? it->get<double>()
             : kDefaultCheckSeconds;
}

// The last `count` lines of the output (all of it when shorter).
std::string last_lines(const std::string& output, int count) {
  std::size_t at = output.size();
  // A final newline ends the last line; it does not start an empty one.
  if (at > 0 && output[at - 1] == '\n') --at;
  for (int n = 0; n < count; ++n) {
    if (at == 0) return output;
    at = output.rfind('\n', at - 1);
    if (at == std::string::npos) return output;
  }
  return output.substr(at + 1);
}

// What one process run told the grader, gathered while it runs.
struct Observed {
  std::mutex mutex;
  std::map<std::string, CheckRecord> records;
  std::optional<std::string> running;  // started, no record yet
  Clock::time_point running_since;
  Clock::time_point last_news = Clock::now();  // the program's start, or the harness's last line
  int foreign_lines = 0;                       // lines without the nonce, or malformed
  int duplicate_records = 0;
  std::optional<Clock::time_point> ready_at;  // said it is ready for its turn
  std::optional<Clock::time_point> go_at;     // was told to go
};

// A run's turn (RunRequest::take_turn): asked for on a program's "ready" unless it is held,
// taken on a thread of its own while the supervisor keeps watching the waiting program, and
// given back (RunRequest::end_turn) once the program has recorded every check it was to run.
class Turn {
 public:
  void ask(const std::function<void()>& take) {
    std::lock_guard lock(mutex_);
    if (held_ || asking_) return;
    asking_ = true;
    if (taker_.joinable()) taker_.join();  // an earlier turn's, finished
    taker_ = std::jthread([this, take] {
      try {
        take();
      } catch (...) {
        // A gate does not throw; if a caller's did, the run goes on rather than wait forever.
      }
      std::lock_guard taken(mutex_);
      asking_ = false;
      held_ = true;
    });
  }
  bool held() {
    std::lock_guard lock(mutex_);
    return held_;
  }
  void end(const std::function<void()>& give_back) {
    std::lock_guard lock(mutex_);
    if (!held_) return;
    held_ = false;
    if (give_back) give_back();
  }

 private:
  std::mutex mutex_;
  bool held_ = false;
  bool asking_ = false;
  std::jthread taker_;  // joined when run_checks returns
};

std::string describe_end(const sandbox::Result& result) { return sandbox::describe(result); }

}  // namespace

std::string fresh_nonce() {
  std::random_device device;
  return fmt::format("{:08x}{:08x}{:08x}{:08x}", device(), device(), device(), device());
}

RunOutcome run_checks(const contract::LabSpec& spec, const RunRequest& request) {
  RunOutcome outcome;
  std::map<std::string, CheckRecord> decided;
  std::vector<std::string> remaining = request.checks;
  std::vector<std::string> hung;      // checks stopped for running past their limits
  std::set<std::string> rerun_alone;  // checks given a second run with the machine alone
  bool alone_next = false;
  bool silent_rerun = false;  // a silence with no check running was given a run alone
  Turn turn;
  const auto limit_of = [&](const std::string& id) {
    const double own = check_seconds(spec, id, request.max_check_seconds);
    const auto tighter = request.check_limits.find(id);
    return tighter != request.check_limits.end() ? std::min(own, tighter->second) : own;
  };

  while (!remaining.empty()) {
    if (request.interrupted && request.interrupted->load()) {
      outcome.interrupted = true;
      break;
    }
    ++outcome.processes;
    const std::string nonce = fresh_nonce();
    Observed observed;
    std::string filter;
    double budget = request.startup_seconds;
    for (const auto& id : remaining) {
      filter += (filter.empty() ? "" : ":") + id;
      budget += limit_of(id);
    }

    sandbox::Policy policy = request.policy;
    policy.time_limit_s = budget;
    policy.env.emplace_back(contract::kGraderChannelVariable, "3,4");
    if (request.gpu >= 0) {
      policy.env.emplace_back("CUDA_VISIBLE_DEVICES", visible_device(request.gpu));
    }

    sandbox::Channel channel;
    channel.on_output = request.on_output;
    contract::GraderMessage message{nonce, request.seed};
    message.wait_for_turn = static_cast<bool>(request.take_turn);
    channel.input = contract::encode_grader_message(message);
    if (request.take_turn) {
      channel.more_input = [&]() -> std::string {
        std::lock_guard lock(observed.mutex);
        if (!observed.ready_at || observed.go_at || !turn.held()) return "";
        observed.go_at = observed.last_news = Clock::now();
        return std::string(contract::kGoLine);
      };
      channel.uncounted_seconds = [&] {
        std::lock_guard lock(observed.mutex);
        if (!observed.ready_at) return 0.0;
        const auto until = observed.go_at.value_or(Clock::now());
        return std::chrono::duration<double>(until - *observed.ready_at).count();
      };
    }
    channel.on_line = [&](std::string_view text) {
      std::lock_guard lock(observed.mutex);
      contract::ChannelLine line;
      try {
        line = contract::decode_channel_line(text);
      } catch (const contract::ChannelError&) {
        ++observed.foreign_lines;
        return;
      }
      if (line.nonce != nonce) {
        ++observed.foreign_lines;
        return;
      }
      observed.last_news = Clock::now();
      if (line.ready && request.take_turn && !observed.ready_at) {
        observed.ready_at = Clock::now();
        turn.ask(request.take_turn);
      }
      if (!line.started.empty()) {
        observed.running = line.started;
        observed.running_since = Clock::now();
      }
      if (line.record) {
        const auto id = line.record->check;
        if (std::find(remaining.begin(), remaining.end(), id) == remaining.end() ||
            observed.records.count(id)) {
          ++observed.duplicate_records;
          return;
        }
        observed.records[id] = std::move(*line.record);
        if (observed.running == id) observed.running.reset();
        // Every check recorded: what is left is the program's exit (freeing its contexts),
        // which need not hold the GPU from the next run's timing.
        if (observed.records.size() == remaining.size()) turn.end(request.end_turn);
      }
    };
    std::string stop_check;  // the check that ran past its limit
    channel.should_stop = [&]() -> std::optional<std::string> {
      if (request.interrupted && request.interrupted->load()) return std::string("interrupted");
      std::lock_guard lock(observed.mutex);
      if (observed.ready_at && !observed.go_at) return std::nullopt;  // waiting for its turn
      if (!observed.running) {
        // Between checks the harness only starts the next one; silence that long is a hang before
        // main (a static initializer) or between checks, which need not wait for the whole budget.
        const std::chrono::duration<double> quiet = Clock::now() - observed.last_news;
        if (quiet.count() <= request.startup_seconds) return std::nullopt;
        return fmt::format(
            "no check started within {:.0f} s (a hang before main or between checks?)",
            request.startup_seconds);
      }
      const double limit = limit_of(*observed.running);
      const std::chrono::duration<double> ran = Clock::now() - observed.running_since;
      if (ran.count() <= limit) return std::nullopt;
      stop_check = *observed.running;
      return fmt::format("{} ran past its {:.0f} s limit", stop_check, limit);
    };

    std::vector<std::string> argv = request.command;
    argv.push_back("--gtest_filter=" + filter);
    sandbox::Result result;
    // The silence before the first check counts from the program's start: a run alone first
    // waits for every shared run to end, and that wait is no silence of the program's.
    const auto start_program = [&] {
      {
        std::lock_guard lock(observed.mutex);
        observed.last_news = Clock::now();
      }
      result = sandbox::run(policy, argv, channel);
    };
    if (std::exchange(alone_next, false)) {
      request.run_alone(start_program);
    } else {
      start_program();
    }
    if (result.stopped && result.stop_reason == "interrupted") {
      outcome.interrupted = true;
      break;
    }

    std::lock_guard lock(observed.mutex);
    if (observed.foreign_lines > 0) {
      outcome.problems.push_back(fmt::format(
          "{} line(s) on the results channel did not come from the harness (wrong nonce or "
          "malformed); they were ignored",
          observed.foreign_lines));
    }
    if (observed.duplicate_records > 0) {
      outcome.problems.push_back(fmt::format("{} duplicate or unexpected record(s) were ignored",
                                             observed.duplicate_records));
    }
    const bool ended_normally = !result.timed_out && !result.stopped && !result.signal &&
                                !result.failed_to_start && !result.out_of_memory;
    const auto how = describe_end(result);
    const auto tail = last_lines(result.output, 15);

    // An end the verdict table decides (batch/verdict_table.hpp: the one rule for exit statuses,
    // skipped and not attempted).
    if (ended_normally) {
      auto judged = judge_normal_end(spec, remaining, observed.records,
                                     {result.exit_code, how, tail}, request.gpu_expected);
      if (judged) {
        for (auto& [id, record] : *judged) decided[id] = std::move(record);
        remaining.clear();
        break;
      }
    }

    // Something ended the program early: keep what it recorded, charge the running check, and
    // run the rest again.
    bool progress = false;
    for (auto& [id, record] : observed.records) {
      decided[id] = std::move(record);
      progress = true;
    }
    const std::string culprit = !stop_check.empty() ? stop_check : observed.running.value_or("");
    if (!culprit.empty() && !decided.count(culprit) && (result.stopped || result.timed_out) &&
        request.run_alone && rerun_alone.insert(culprit).second) {
      // Past its limit while others shared the machine: once more, alone, before it fails.
      std::erase_if(remaining, [&](const std::string& id) { return decided.count(id) > 0; });
      alone_next = true;
      continue;
    }
    if (culprit.empty() && (result.stopped || result.timed_out) && request.run_alone &&
        !silent_rerun) {
      // Silent past the start-up limit with no check running, while others shared the machine:
      // a program starved of the CPU looks like a hang before main. Once more, alone.
      silent_rerun = true;
      outcome.problems.push_back(fmt::format(
          "the program was stopped ({}) while other runs shared the machine; the checks left "
          "ran again with the machine to itself",
          result.stop_reason.empty() ? how : result.stop_reason));
      std::erase_if(remaining, [&](const std::string& id) { return decided.count(id) > 0; });
      alone_next = true;
      continue;
    }
    if (!culprit.empty() && !decided.count(culprit)) {
      std::string reason;
      if (result.stopped) {
        reason = fmt::format("stopped: {} (an endless loop, or a grid far too large?)",
                             result.stop_reason);
      } else if (result.timed_out) {
        reason = fmt::format("the program {} during this check", how);
      } else if (result.signal) {
        reason = fmt::format(
            "the program crashed during this check ({}): does the launcher use a device pointer "
            "on the host, or overrun a host array?",
            how);
      } else {
        reason = fmt::format("the program ended during this check ({}) without a result", how);
      }
      auto record = grader_record(spec, culprit, Verdict::fail, std::move(reason));
      if (!tail.empty()) record.notes.push_back("last output: " + tail);
      if (rerun_alone.count(culprit)) {
        record.notes.push_back(
            "it ran past its limit while other runs shared the machine, and "
            "again with the machine to itself");
      }
      decided[culprit] = std::move(record);
      progress = true;
    }
    std::erase_if(remaining, [&](const std::string& id) { return decided.count(id) > 0; });
    if (!culprit.empty() && (result.stopped || result.timed_out)) hung.push_back(culprit);
    if (static_cast<int>(hung.size()) >= request.max_hangs && !remaining.empty()) {
      std::string names;
      for (const auto& id : hung) names += (names.empty() ? "" : ", ") + id;
      for (const auto& id : remaining) {
        decided[id] = grader_record(
            spec, id, Verdict::fail,
            fmt::format("not run: {} checks ran past their time limits ({}); a kernel that hangs "
                        "twice would hang here too",
                        hung.size(), names));
      }
      remaining.clear();
      break;
    }
    if (!progress) {
      for (const auto& id : remaining) {
        auto record =
            grader_record(spec, id, Verdict::fail,
                          fmt::format("the program ended ({}) before this check ran", how));
        if (!tail.empty()) record.notes.push_back("last output: " + tail);
        decided[id] = std::move(record);
      }
      remaining.clear();
    }
  }
  for (const auto& id : rerun_alone) {
    if (auto it = decided.find(id); it != decided.end() && it->second.verdict != Verdict::fail) {
      it->second.notes.push_back(
          "it ran past its limit while other runs shared the machine; this result is from a "
          "run with the machine to itself");
    }
  }
  for (const auto& id : request.checks) {
    if (auto it = decided.find(id); it != decided.end()) {
      outcome.records.push_back(std::move(it->second));
    }
  }
  return outcome;
}

}  // namespace batch
