#include <string.h>

#include <cmath>

#include <fmt/format.h>

#include "sandbox/core.hpp"

namespace sandbox {
namespace {

// 16 GiB, 256 MiB, 1.5 KiB, 100 bytes.
std::string bytes_in_words(std::uint64_t bytes) {
  constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{} bytes", bytes);
  return fmt::format("{:g} {}", std::round(value * 10) / 10, kUnits[unit]);
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.starts_with("sandbox: ")) line = line.substr(9);
  return line;
}

std::string signal_words(int signal) {
  const char* name = sigabbrev_np(signal);
  const char* meaning = sigdescr_np(signal);
  if (!name) return fmt::format("killed by signal {}", signal);
  return fmt::format("killed by SIG{} ({})", name, meaning ? meaning : "?");
}

}  // namespace

std::string describe(const Result& result) {
  std::string words;
  if (result.failed_to_start) {
    words = "could not start: " + first_line(result.output);
  } else if (result.stopped) {
    words = "stopped: " + result.stop_reason;
  } else if (result.timed_out) {
    words = fmt::format("timed out after {:g} s", result.time_limit_s);
  } else if (result.out_of_memory) {
    words = fmt::format("out of memory (cap {})", bytes_in_words(result.memory_cap_bytes));
  } else if (result.signal != 0) {
    words = signal_words(result.signal);
  } else {
    words = fmt::format("exit code {}", result.exit_code);
  }
  if (result.output_truncated) {
    words += fmt::format("; output cut at {}", bytes_in_words(result.output_cap_bytes));
  }
  return words;
}

}  // namespace sandbox
