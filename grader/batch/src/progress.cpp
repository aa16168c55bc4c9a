#include "batch/progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include <fmt/format.h>

namespace batch {
namespace {

std::string minutes_seconds(double seconds) {
  const int s = static_cast<int>(seconds + 0.5);
  return s >= 60 ? fmt::format("{}m{:02d}s", s / 60, s % 60) : fmt::format("{}s", s);
}

}  // namespace

Progress::Progress(int total) : total_(total), terminal_(isatty(STDERR_FILENO) != 0) {
  printer_ = std::thread([this] { loop(); });
}

Progress::~Progress() { stop(); }

void Progress::finished(bool failed, bool from_cache) {
  --running_;
  ++done_;
  if (failed) ++failed_;
  if (from_cache) ++cached_;
}

void Progress::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  printer_.join();
  print(true);
}

void Progress::loop() {
  // Redrawn every second on a terminal; a log (CI) gets a line every 15 s.
  const auto period = terminal_ ? std::chrono::seconds(1) : std::chrono::seconds(15);
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, period, [&] { return stopping_; })) print(false);
}

void Progress::print(bool final) {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  const int done = done_.load();
  const int fresh = done - cached_.load();
  std::string left = "time left unknown";
  if (done >= total_) {
    left = fmt::format("took {}", minutes_seconds(elapsed.count()));
  } else if (fresh > 0) {
    left = fmt::format("about {} left", minutes_seconds(elapsed.count() / fresh * (total_ - done)));
  }
  const auto line = fmt::format("[{}/{} done, {} running, {} failed, {}]", done, total_,
                                running_.load(), failed_.load(), left);
  if (terminal_) {
    std::fprintf(stderr, "\r%-78s%s", line.c_str(), final ? "\n" : "");
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

}  // namespace batch
