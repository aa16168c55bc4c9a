#include "harness/trace.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;
const Clock::time_point program_start = Clock::now();
const bool tracing = std::getenv("LABS_TRACE") != nullptr;

}  // namespace

void trace(std::string_view what) {
  if (!tracing) return;
  const std::chrono::duration<double, std::milli> since = Clock::now() - program_start;
  std::fprintf(stderr, "[trace +%.1f ms] %.*s\n", since.count(), static_cast<int>(what.size()),
               what.data());
}

}  // namespace harness
