#include "process_watch.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "contract/grader_channel.hpp"

namespace batch {

void Turn::ask(const std::function<void()>& take) {
  std::lock_guard lock(mutex_);
  if (held_ || asking_) return;
  if (taker_.joinable()) taker_.join();  // an earlier turn's, finished
  asking_ = true;
  try {
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
  } catch (...) {
    asking_ = false;  // the thread was refused: not asking (the caller stops the run)
    throw;
  }
}

bool Turn::held() {
  std::lock_guard lock(mutex_);
  return held_;
}

void Turn::end(const std::function<void()>& give_back) {
  std::lock_guard lock(mutex_);
  if (!held_) return;
  held_ = false;
  if (give_back) give_back();
}

ProcessWatch::ProcessWatch(const RunRequest& request, const std::vector<std::string>& remaining,
                           std::function<double(const std::string&)> limit_of, Turn& turn)
    : request_(request),
      remaining_(remaining),
      limit_of_(std::move(limit_of)),
      turn_(turn),
      nonce_(fresh_nonce()) {}

sandbox::Channel ProcessWatch::channel() {
  sandbox::Channel channel;
  channel.on_output = request_.on_output;
  contract::GraderMessage message{nonce_, request_.seed};
  message.wait_for_turn = static_cast<bool>(request_.take_turn);
  channel.input = contract::encode_grader_message(message);
  add_turn(channel);
  channel.on_line = [this](std::string_view text) { read_line(text); };
  channel.should_stop = [this] { return why_stop(); };
  return channel;
}

// The turn's side of the channel (RunRequest::take_turn): "go" once the turn is held, and the
// wait for it uncounted.
void ProcessWatch::add_turn(sandbox::Channel& channel) {
  if (!request_.take_turn) return;
  channel.more_input = [this]() -> std::string {
    std::lock_guard lock(observed.mutex);
    if (!observed.ready_at || observed.go_at || !turn_.held()) return "";
    observed.go_at = observed.last_news = Clock::now();
    return std::string(contract::kGoLine);
  };
  channel.uncounted_seconds = [this] {
    std::lock_guard lock(observed.mutex);
    if (!observed.ready_at) return 0.0;
    const auto until = observed.go_at.value_or(Clock::now());
    return std::chrono::duration<double>(until - *observed.ready_at).count();
  };
}

// A line on the results channel: ready, a check started, or a record.
void ProcessWatch::read_line(std::string_view text) {
  std::lock_guard lock(observed.mutex);
  contract::ChannelLine line;
  try {
    line = contract::decode_channel_line(text);
  } catch (const contract::ChannelError&) {
    ++observed.foreign_lines;
    return;
  }
  if (line.nonce != nonce_) {
    ++observed.foreign_lines;
    return;
  }
  observed.last_news = Clock::now();
  if (line.ready && request_.take_turn && !observed.ready_at) {
    observed.ready_at = Clock::now();
    try {
      turn_.ask(request_.take_turn);
    } catch (const std::system_error&) {  // the thread that waits for the turn was refused
      observed.grader_failure = std::current_exception();
    }
  }
  if (!line.started.empty()) {
    observed.running = line.started;
    observed.running_since = Clock::now();
  }
  if (!line.record) return;
  const auto id = line.record->check;
  if (std::find(remaining_.begin(), remaining_.end(), id) == remaining_.end() ||
      observed.records.count(id)) {
    ++observed.duplicate_records;
    return;
  }
  observed.records[id] = std::move(*line.record);
  if (observed.running == id) observed.running.reset();
  // Every check recorded: what is left is the program's exit (freeing its contexts), which
  // need not hold the GPU from the next run's timing.
  if (observed.records.size() == remaining_.size()) turn_.end(request_.end_turn);
}

// Why to stop the process now (a check past its limit, a silence), or nothing.
std::optional<std::string> ProcessWatch::why_stop() {
  if (request_.interrupted && request_.interrupted->load()) return std::string("interrupted");
  std::lock_guard lock(observed.mutex);
  if (observed.grader_failure) return std::string("the grader could not start a thread");
  if (!observed.watched_since_spawn) {
    observed.watched_since_spawn = true;
    observed.last_news = Clock::now();
  }
  if (observed.ready_at && !observed.go_at) return std::nullopt;  // waiting for its turn
  if (!observed.running) {
    // Between checks the harness only starts the next one; silence that long is a hang before
    // main (a static initializer) or between checks, which need not wait for the whole budget.
    const std::chrono::duration<double> quiet = Clock::now() - observed.last_news;
    if (quiet.count() <= request_.startup_seconds) return std::nullopt;
    return fmt::format("no check started within {:.0f} s (a hang before main or between checks?)",
                       request_.startup_seconds);
  }
  const double limit = limit_of_(*observed.running);
  const std::chrono::duration<double> ran = Clock::now() - observed.running_since;
  if (ran.count() <= limit) return std::nullopt;
  stop_check = *observed.running;
  return fmt::format("{} ran past its {:.0f} s limit", stop_check, limit);
}

}  // namespace batch
