#include "harness/observe.hpp"

#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/diagnose.hpp"

namespace harness {

std::optional<RecordedActivity> observe_launches(Check& check, const std::string& call,
                                                 const std::function<void()>& launch) {
  LaunchRecorder recorder;
  if (!recorder.unavailable_reason().empty()) {
    check.set_verdict(Verdict::error, recorder.unavailable_reason());
    return std::nullopt;
  }
  launch();
  synchronize_after(call);
  auto activity = recorder.stop();
  for (const auto& kernel : activity.kernels) check.note("launched " + describe_launch(kernel));
  if (!check.has_kernel_facts()) {
    for (auto& facts : kernel_facts(activity)) check.add_kernel_facts(std::move(facts));
  }
  if (activity.memory_copies > 0) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("{} calls cudaMemcpy: the work must be done by your kernel", call));
    check.diagnose(make_diagnosis(
        "memcpy_instead_of_kernel",
        fmt::format("{} cudaMemcpy call(s) recorded during {}", activity.memory_copies, call)));
    return std::nullopt;
  }
  if (activity.kernels.empty()) {
    check.set_verdict(Verdict::fail, fmt::format("{} launched no kernel", call));
    return std::nullopt;
  }
  return activity;
}

void judge_shared_memory_use(Check& check, const RecordedActivity& activity,
                             const std::string& advice, long long min_bytes) {
  std::string without;
  std::string too_little;
  long long smallest = -1;
  for (const auto& launch : activity.kernels) {
    const long long shared = launch.static_shared_bytes + launch.dynamic_shared_bytes;
    // describe_launch names the kernel itself ("k(float*): grid ... x block ...").
    if (shared <= 0) {
      without += fmt::format("{}{}", without.empty() ? "" : "; ", describe_launch(launch));
    } else if (shared < min_bytes) {
      too_little += fmt::format("{}{} ({} bytes)", too_little.empty() ? "" : "; ",
                                describe_launch(launch), shared);
    }
    if (shared > 0 && (smallest < 0 || shared < smallest)) smallest = shared;
  }
  const std::string then = advice.empty() ? "" : ". " + advice;
  if (!without.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("launched with no shared memory: {}{}", without, then));
    check.diagnose(make_diagnosis("no_shared_memory",
                                  "the recorded launch(es) show 0 bytes of shared memory"));
  } else if (!too_little.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("launched with less than {} bytes of shared memory: {}{}",
                                  min_bytes, too_little, then));
  } else {
    check.set_verdict(
        Verdict::pass,
        fmt::format("{} kernel launch(es), each with shared memory ({} bytes or more)",
                    activity.kernels.size(), smallest));
  }
}

}  // namespace harness

namespace harness {

void record_kernel_facts(Check& check, const std::function<void()>& launch) {
  std::optional<RecordedActivity> activity;
  {
    LaunchRecorder recorder;
    launch();
    activity =
        recorder.unavailable_reason().empty() ? std::optional(recorder.stop()) : std::nullopt;
  }
  if (!activity || check.has_kernel_facts()) return;
  for (auto& facts : kernel_facts(*activity)) check.add_kernel_facts(std::move(facts));
}

}  // namespace harness
