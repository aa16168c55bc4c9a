#include "batch/run_step.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "batch/visible_devices.hpp"
#include "contract/exit_status.hpp"
#include "contract/grader_channel.hpp"
#include "process_watch.hpp"

namespace batch {
namespace {

// The lab program's own word (the student's code runs in its launcher) that the host refused it
// a thread: nothing it recorded in this run is kept; labgrade batch grades the submission again.
void throw_if_refused_by_host(int exit_code) {
  if (exit_code != contract::exit_status::host_refused) return;
  throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                          "the host refused the lab program a thread or a process (its limit on "
                          "tasks, held by other programs)");
}

using contract::CheckRecord;
using contract::Verdict;

double check_seconds(const contract::LabSpec& spec, const std::string& id, double override_s) {
  if (override_s > 0) return override_s;
  const auto* check = spec.find(id);
  return check ? check->timeout_s : contract::kDefaultCheckSeconds;
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

std::string describe_end(const sandbox::Result& result) { return sandbox::describe(result); }

}  // namespace

bool refused_by_host_task_limit(const std::exception& error) {
  if (const auto* system = dynamic_cast<const std::system_error*>(&error)) {
    return system->code() == std::errc::resource_unavailable_try_again;
  }
  const auto* not_started = dynamic_cast<const SandboxNotStarted*>(&error);
  return not_started &&
         std::string_view(error.what()).find(std::strerror(EAGAIN)) != std::string_view::npos;
}

void pause_before_attempt(int next) {
  std::this_thread::sleep_for(std::chrono::seconds(15 * (next - 1)));
}

std::string fresh_nonce() {
  std::random_device device;
  return fmt::format("{:08x}{:08x}{:08x}{:08x}", device(), device(), device(), device());
}

namespace {

// One process run's end, as read after it: how it ended and the output's tail.
struct ProcessEnd {
  bool normal = false;  // exited by itself: no timeout, stop, signal, start failure, or OOM
  std::string how;      // sandbox::describe's words
  std::string tail;     // the last lines of its output
};

// run_checks' state across the program's processes: the checks decided and those still to run.
// Each process runs the remaining checks; what ends it early is charged to the check that was
// running, and the rest run again in a new process.
class CheckRunner {
 public:
  CheckRunner(const contract::LabSpec& spec, const RunRequest& request)
      : spec_(spec), request_(request), remaining_(request.checks) {}

  RunOutcome run() {
    while (!remaining_.empty()) {
      if (request_.interrupted && request_.interrupted->load()) {
        outcome_.interrupted = true;
        break;
      }
      if (!run_process()) break;
    }
    note_reruns();
    for (const auto& id : request_.checks) {
      if (auto it = decided_.find(id); it != decided_.end()) {
        outcome_.records.push_back(std::move(it->second));
      }
    }
    return std::move(outcome_);
  }

 private:
  double limit_of(const std::string& id) const {
    const double own = check_seconds(spec_, id, request_.max_check_seconds);
    const auto tighter = request_.check_limits.find(id);
    return tighter != request_.check_limits.end() ? std::min(own, tighter->second) : own;
  }

  // The sandbox policy of one process: time for the remaining checks and the start, the channel.
  sandbox::Policy process_policy() const {
    double budget = request_.startup_seconds;
    for (const auto& id : remaining_) budget += limit_of(id);
    sandbox::Policy policy = request_.policy;
    policy.time_limit_s = budget;
    policy.env.emplace_back(contract::kGraderChannelVariable, "3,4");
    if (request_.gpu >= 0) {
      for (auto& variable : gpu_environment(request_.gpu)) {
        policy.env.push_back(std::move(variable));
      }
    }
    return policy;
  }

  std::vector<std::string> process_command() const {
    std::string filter;
    for (const auto& id : remaining_) filter += (filter.empty() ? "" : ":") + id;
    std::vector<std::string> argv = request_.command;
    argv.push_back("--gtest_filter=" + filter);
    return argv;
  }

  // One process of the program over the remaining checks; false when run_checks is done.
  bool run_process() {
    ++outcome_.processes;
    ProcessWatch watch(
        request_, remaining_, [this](const std::string& id) { return limit_of(id); }, turn_);
    Observed& observed = watch.observed;
    const sandbox::Policy policy = process_policy();
    const sandbox::Channel channel = watch.channel();
    const std::vector<std::string> argv = process_command();
    sandbox::Result result;
    // The silence before the first check counts from the program's start: a run alone first
    // waits for every shared run to end, and that wait is no silence of the program's.
    const auto start_program = [&] {
      {
        std::lock_guard lock(observed.mutex);
        observed.last_news = Clock::now();
      }
      result = request_.run_program(policy, argv, channel);
    };
    if (std::exchange(alone_next_, false)) {
      request_.run_alone(start_program);
    } else {
      start_program();
    }
    if (result.stopped && result.stop_reason == "interrupted") {
      outcome_.interrupted = true;
      return false;
    }
    std::lock_guard lock(observed.mutex);
    if (observed.grader_failure) std::rethrow_exception(observed.grader_failure);
    return judge_process(observed, result, watch.stop_check);
  }

  void note_channel_problems(const Observed& observed) {
    if (observed.foreign_lines > 0) {
      outcome_.problems.push_back(fmt::format(
          "{} line(s) on the results channel did not come from the harness (wrong nonce or "
          "malformed); they were ignored",
          observed.foreign_lines));
    }
    if (observed.duplicate_records > 0) {
      outcome_.problems.push_back(fmt::format("{} duplicate or unexpected record(s) were ignored",
                                              observed.duplicate_records));
    }
  }

  // How the process ended decides its checks; false when run_checks is done.
  bool judge_process(Observed& observed, const sandbox::Result& result,
                     const std::string& stop_check) {
    note_channel_problems(observed);
    if (result.failed_to_start && request_.policy.isolate) {
      throw SandboxNotStarted("the grader could not start the lab program in its sandbox (" +
                              last_lines(result.output, 3) +
                              "): not the submission's doing; run the batch again");
    }
    ProcessEnd end;
    end.normal = !result.timed_out && !result.stopped && !result.signal &&
                 !result.failed_to_start && !result.out_of_memory;
    if (end.normal) throw_if_refused_by_host(result.exit_code);
    end.how = describe_end(result);
    end.tail = last_lines(result.output, 15);
    // An end the verdict table decides (batch/verdict_table.hpp: the one rule for exit statuses,
    // skipped and not attempted).
    if (end.normal) {
      auto judged = judge_normal_end(spec_, remaining_, observed.records,
                                     {result.exit_code, end.how, end.tail}, request_.gpu_expected);
      if (judged) {
        for (auto& [id, record] : *judged) decided_[id] = std::move(record);
        remaining_.clear();
        return again_alone_out_of_memory();
      }
    }
    // Something ended the program early: keep what it recorded, charge the running check, and
    // run the rest again.
    bool progress = false;
    for (auto& [id, record] : observed.records) {
      decided_[id] = std::move(record);
      progress = true;
    }
    const std::string culprit = !stop_check.empty() ? stop_check : observed.running.value_or("");
    if (give_another_run(culprit, result, end)) return true;
    if (!culprit.empty() && !decided_.count(culprit)) {
      charge(culprit, result, end);
      progress = true;
    }
    drop_decided();
    if (!culprit.empty() && (result.stopped || result.timed_out)) hung_.push_back(culprit);
    if (static_cast<int>(hung_.size()) >= request_.max_hangs && !remaining_.empty()) {
      fail_remaining_after_hangs();
      return false;
    }
    again_alone_out_of_memory();
    if (!progress) {
      for (const auto& id : remaining_) {
        auto record =
            grader_record(spec_, id, Verdict::fail,
                          fmt::format("the program ended ({}) before this check ran", end.how));
        if (!end.tail.empty()) record.notes.push_back("last output: " + end.tail);
        decided_[id] = std::move(record);
      }
      remaining_.clear();
    }
    return true;
  }

  // A stop among shared runs gets one more run with the machine alone, before anything fails.
  bool give_another_run(const std::string& culprit, const sandbox::Result& result,
                        const ProcessEnd& end) {
    const bool stopped = result.stopped || result.timed_out;
    // Once a check has run past its limit alone too, the kernel is known to hang: later checks
    // past their limits fail without a run alone, which would hold the GPU from every other
    // submission's speed run for one more limit each (the sample class's mallory-loop).
    if (!culprit.empty() && !decided_.count(culprit) && stopped && request_.run_alone &&
        !hung_alone_ && rerun_alone_.emplace(culprit, "ran past its limit").second) {
      // Past its limit while others shared the machine: once more, alone, before it fails.
      drop_decided();
      alone_next_ = true;
      return true;
    }
    if (culprit.empty() && stopped && request_.run_alone && !silent_rerun_) {
      // Silent past the start-up limit with no check running, while others shared the machine:
      // a program starved of the CPU looks like a hang before main. Once more, alone.
      silent_rerun_ = true;
      outcome_.problems.push_back(fmt::format(
          "the program was stopped ({}) while other runs shared the machine; the checks left "
          "ran again with the machine to itself",
          result.stop_reason.empty() ? end.how : result.stop_reason));
      drop_decided();
      alone_next_ = true;
      return true;
    }
    return false;
  }

  // A check the GPU's memory ran out in while others shared it (their programs hold contexts and
  // buffers too) runs once more with the GPU to itself before its record stands, as a check past
  // its limit does: an innocent kernel never loses points to the load of others. Its record's
  // words (the harness's CudaError, a case's reason) say so. True when such a run is due.
  bool again_alone_out_of_memory() {
    if (!request_.run_alone) return false;
    bool again = false;
    for (auto it = decided_.begin(); it != decided_.end();) {
      const bool pass = it->second.verdict == Verdict::pass;
      if (pass || !mentions_gpu_out_of_memory(it->second) || rerun_alone_.count(it->first)) {
        ++it;
        continue;
      }
      rerun_alone_.emplace(it->first, "ran out of GPU memory");
      remaining_.push_back(it->first);
      it = decided_.erase(it);
      again = true;
    }
    if (again) alone_next_ = true;
    return again;
  }

  static bool mentions_gpu_out_of_memory(const CheckRecord& record) {
    const auto says = [](const std::string& text) {
      return text.find("cudaErrorMemoryAllocation") != std::string::npos ||
             text.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos;
    };
    return says(record.reason) || std::any_of(record.cases.begin(), record.cases.end(),
                                              [&](const auto& c) { return says(c.reason); });
  }

  // The check that was running when the program ended early fails, saying how it ended.
  void charge(const std::string& culprit, const sandbox::Result& result, const ProcessEnd& end) {
    std::string reason;
    if (result.stopped) {
      reason = fmt::format("stopped: {} (an endless loop, or a grid far too large?)",
                           result.stop_reason);
    } else if (result.timed_out) {
      reason = fmt::format("the program {} during this check", end.how);
    } else if (result.signal) {
      reason = fmt::format(
          "the program crashed during this check ({}): does the launcher use a device pointer "
          "on the host, or overrun a host array?",
          end.how);
    } else {
      reason = fmt::format("the program ended during this check ({}) without a result", end.how);
    }
    auto record = grader_record(spec_, culprit, Verdict::fail, std::move(reason));
    if (!end.tail.empty()) record.notes.push_back("last output: " + end.tail);
    if (const auto rerun = rerun_alone_.find(culprit); rerun != rerun_alone_.end()) {
      record.notes.push_back(fmt::format(
          "it {} while other runs shared the machine, then ended this way with the machine to "
          "itself",
          rerun->second));
      hung_alone_ = hung_alone_ || result.stopped || result.timed_out;
    } else if (hung_alone_ && (result.stopped || result.timed_out)) {
      record.notes.push_back(
          "not run again alone: an earlier check ran past its limit with the machine to itself");
    }
    decided_[culprit] = std::move(record);
  }

  // A kernel that hangs usually hangs in every check: the rest are not run.
  void fail_remaining_after_hangs() {
    std::string names;
    for (const auto& id : hung_) names += (names.empty() ? "" : ", ") + id;
    for (const auto& id : remaining_) {
      decided_[id] = grader_record(
          spec_, id, Verdict::fail,
          fmt::format("not run: {} checks ran past their time limits ({}); a kernel that hangs "
                      "twice would hang here too",
                      hung_.size(), names));
    }
    remaining_.clear();
  }

  void drop_decided() {
    std::erase_if(remaining_, [&](const std::string& id) { return decided_.count(id) > 0; });
  }

  void note_reruns() {
    for (const auto& [id, why] : rerun_alone_) {
      if (auto it = decided_.find(id);
          it != decided_.end() && it->second.verdict != Verdict::fail) {
        it->second.notes.push_back(fmt::format(
            "it {} while other runs shared the machine; this result is from a run with the "
            "machine to itself",
            why));
      }
    }
  }

  const contract::LabSpec& spec_;
  const RunRequest& request_;
  RunOutcome outcome_;
  std::map<std::string, CheckRecord> decided_;
  std::vector<std::string> remaining_;
  std::vector<std::string> hung_;  // checks stopped for running past their limits
  // Checks given a second run with the machine alone, and why (words for the record's note).
  std::map<std::string, std::string> rerun_alone_;
  bool alone_next_ = false;
  bool silent_rerun_ = false;  // a silence with no check running was given a run alone
  bool hung_alone_ = false;    // a check ran past its limit in a run alone too
  Turn turn_;                  // last: its thread is joined before the rest goes
};

}  // namespace

RunOutcome run_checks(const contract::LabSpec& spec, const RunRequest& request) {
  return CheckRunner(spec, request).run();
}

}  // namespace batch
