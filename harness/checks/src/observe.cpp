#include "harness/observe.hpp"

#include <algorithm>

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
  // A device-to-device copy between kernels is data movement (a multi-pass reduction moving its
  // partial sums); it stands in for the work only in a lab whose work a copy could do (lab 1's
  // copy), and such a lab's spec says so ("forbid_copies").
  const bool copies_forbidden = check.spec().param_or_default<bool>("forbid_copies");
  if (activity.memory_copies > 0 && !copies_forbidden) {
    check.note(
        fmt::format("{} also copies with cudaMemcpy ({} call(s)): data movement, not "
                    "the work; the kernels are judged",
                    call, activity.memory_copies));
  } else if (activity.memory_copies > 0) {
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

namespace {

// The launches that do the work must use shared memory. A kernel without any that has at most
// 1/kHelperShare of the threads of the largest kernel with it is a helper (a one-thread kernel
// zeroing a sum, a last pass over a block's worth of partial sums) and is only noted; a larger
// one (a naive product beside the tiled one) is doing work without it.
constexpr long long kHelperShare = 32;
struct SharedMemoryUse {
  std::string without;     // launches without shared memory that do (part of) the work
  std::string helpers;     // launches without shared memory, small enough to be helpers
  std::string too_little;  // launches with less than min_bytes
  long long smallest = -1;
};

SharedMemoryUse shared_memory_use(const RecordedActivity& activity, long long min_bytes) {
  SharedMemoryUse use;
  long long largest_with = 0;  // threads of the largest launch with shared memory
  for (const auto& launch : activity.kernels) {
    if (launch.static_shared_bytes + launch.dynamic_shared_bytes > 0) {
      largest_with = std::max(largest_with, launch.threads());
    }
  }
  const auto add = [](std::string& list, const std::string& item) {
    list += (list.empty() ? "" : "; ") + item;
  };
  for (const auto& launch : activity.kernels) {
    const long long shared = launch.static_shared_bytes + launch.dynamic_shared_bytes;
    // describe_launch names the kernel itself ("k(float*): grid ... x block ...").
    if (shared <= 0) {
      const bool helper = launch.threads() * kHelperShare <= largest_with;
      add(helper ? use.helpers : use.without, describe_launch(launch));
    } else if (shared < min_bytes) {
      add(use.too_little, fmt::format("{} ({} bytes)", describe_launch(launch), shared));
    }
    if (shared > 0 && (use.smallest < 0 || shared < use.smallest)) use.smallest = shared;
  }
  return use;
}

}  // namespace

void judge_shared_memory_use(Check& check, const RecordedActivity& activity,
                             const std::string& advice, long long min_bytes) {
  const auto use = shared_memory_use(activity, min_bytes);
  const std::string then = advice.empty() ? "" : ". " + advice;
  if (!use.without.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("launched with no shared memory: {}{}", use.without, then));
    check.diagnose(make_diagnosis("no_shared_memory",
                                  "the recorded launch(es) show 0 bytes of shared memory"));
    return;
  }
  if (!use.too_little.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("launched with less than {} bytes of shared memory: {}{}",
                                  min_bytes, use.too_little, then));
    return;
  }
  if (use.helpers.empty()) {
    check.set_verdict(
        Verdict::pass,
        fmt::format("{} kernel launch(es), each with shared memory ({} bytes or more)",
                    activity.kernels.size(), use.smallest));
    return;
  }
  check.note(
      fmt::format("helper kernel(s) without shared memory, a small part of the work's "
                  "size (1/{} of its threads or less): {}",
                  kHelperShare, use.helpers));
  check.set_verdict(Verdict::pass,
                    fmt::format("the kernel launch(es) doing the work use shared memory ({} bytes "
                                "or more); the small helpers beside them need none",
                                use.smallest));
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
