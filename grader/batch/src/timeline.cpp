#include "batch/timeline.hpp"

#include <fmt/format.h>

namespace batch {

Timeline::Timeline(const std::filesystem::path& file) {
  if (file.empty()) return;
  out_ = std::fopen(file.c_str(), "w");
  if (out_) std::fputs("seconds,submission,phase,event\n", out_);
}

Timeline::~Timeline() {
  if (out_) std::fclose(out_);
}

void Timeline::mark(std::string_view slug, std::string_view phase, std::string_view event) {
  if (!out_) return;
  std::lock_guard lock(mutex_);
  // Read under the lock, so that the lines are in time order.
  const std::chrono::duration<double> since = std::chrono::steady_clock::now() - start_;
  // Slugs are file-name safe (no commas or quotes): intake made them.
  fmt::print(out_, "{:.3f},{},{},{}\n", since.count(), slug, phase, event);
  std::fflush(out_);
}

}  // namespace batch
