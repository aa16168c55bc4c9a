// Where a batch's time went: one CSV line per event (seconds since the batch started, the
// submission, what happened), in .labgrade/timeline.csv. scripts/batch-timeline.py sums it up:
// the GPU's exclusive and shared time, its idle time, and each phase's durations.
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

namespace batch {

class Timeline {
 public:
  // An empty path records nothing.
  explicit Timeline(const std::filesystem::path& file);
  ~Timeline();
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  // e.g. mark("student-001", "speed", "start"); the GPU's number is part of the phase's name
  // when the batch has several ("speed@1").
  void mark(std::string_view slug, std::string_view phase, std::string_view event);

 private:
  std::mutex mutex_;
  std::FILE* out_ = nullptr;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace batch
