#include "harness/observe.hpp"

#include <fmt/format.h>

#include "harness/cuda_check.hpp"

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
  if (activity.memory_copies > 0) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("{} calls cudaMemcpy: the work must be done by your kernel", call));
    return std::nullopt;
  }
  if (activity.kernels.empty()) {
    check.set_verdict(Verdict::fail, fmt::format("{} launched no kernel", call));
    return std::nullopt;
  }
  return activity;
}

}  // namespace harness
