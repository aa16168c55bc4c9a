// Lab 1's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// sizes and thresholds.
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device_compare.hpp"
#include "harness/diagnose_run.hpp"
#include "harness/observe.hpp"
#include "harness/random.hpp"
#include "harness/speed.hpp"
#include "harness/student_call.hpp"
#include "lab1.h"
#include "lab1_bonus.h"

// The bonus is optional: bonus.cu may be absent from a submission. Declared weak, the function's
// address is null when nothing defines it, and the program still links.
void copy_matrix_fast(const float* in, float* out, int rows, int cols) __attribute__((weak));

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::Verdict;

using CopyLauncher = void (*)(const float*, float*, int, int);

// Every size in the spec: random input, NaN-poisoned output with guard zones; the copy must be
// exact, leave the input alone and write nothing outside the output.
void check_copies_exactly(Check& check, CopyLauncher copy, const char* name) {
  for (const auto& size : check.spec().sizes("sizes")) {
    const int rows = size.first;
    const int cols = size.second;
    const auto label = fmt::format("{}x{}", rows, cols);
    check.run_case(label, [&](CaseResult& result) {
      const auto values = harness::random_real_matrix(rows, cols, check.seed_for(label));
      auto in = DeviceBuffer::matrix("in", rows, cols);
      auto out = DeviceBuffer::matrix("out", rows, cols);
      in.upload(values);
      const auto call = fmt::format("{}(in, out, {}, {})", name, rows, cols);
      harness::CaseLaunchCapture capture;
      copy(in.data(), out.data(), rows, cols);
      harness::synchronize_after(call);
      const auto activity = capture.stop();
      harness::expect_matrix(result, values, out, rows, cols);
      harness::expect_guards_intact(result, out, cols);
      harness::expect_guards_intact(result, in, cols);
      harness::expect_unchanged(result, in, values);
      // A wrong copy: name the likely mistake (transposed, unwritten, ...).
      const harness::CaseRerun rerun{{{"in", &values, cols}},
                                     values.size(),
                                     [&](const std::vector<float*>& inputs, float* output) {
                                       copy(inputs[0], output, rows, cols);
                                     },
                                     call};
      harness::FailedCase failed;
      failed.expected = &values;
      failed.rows = rows;
      failed.cols = cols;
      failed.output = &out;
      failed.launch = harness::main_launch(activity);
      failed.rerun = &rerun;
      harness::diagnose_failed_case(result, failed);
    });
  }
}

// `out` equals the original input, and the input is unchanged.
bool copies_exactly(const DeviceBuffer& original, const DeviceBuffer& in, const DeviceBuffer& out) {
  return harness::count_differences_on_device(original.data(), out.data(), original.size()) == 0 &&
         harness::count_differences_on_device(original.data(), in.data(), original.size()) == 0;
}

struct ObservedLaunch {
  harness::RecordedActivity activity;
  long long threads = 0;
  bool output_right = false;
};

// Runs the launcher once under the launch recorder. Returns nothing (and sets the verdict) when
// the launches cannot be judged.
std::optional<ObservedLaunch> observe_launch(Check& check, CopyLauncher copy, const char* name) {
  const int rows = check.spec().size("size").first;
  const int cols = check.spec().size("size").second;
  auto in = DeviceBuffer::matrix("in", rows, cols);
  auto out = DeviceBuffer::matrix("out", rows, cols);
  in.fill_random(check.seed_for("input"));
  // The copy is judged against the input as it was: a kernel that also changes `in` is wrong.
  const auto original = harness::device_copy(in, "in as it was");

  ObservedLaunch observed;
  const auto call = fmt::format("{}(in, out, {}, {})", name, rows, cols);
  auto activity =
      harness::observe_launches(check, call, [&] { copy(in.data(), out.data(), rows, cols); });
  if (!activity) return std::nullopt;
  observed.activity = std::move(*activity);
  for (const auto& launch : observed.activity.kernels) observed.threads += launch.threads();
  observed.output_right = copies_exactly(*original, in, out);
  if (!observed.output_right) {
    check.set_verdict(Verdict::fail, fmt::format("the {}x{} copy is wrong, so its launch shape "
                                                 "is not graded: fix correctness first",
                                                 rows, cols));
    return std::nullopt;
  }
  return observed;
}

// Times the launcher against cudaMemcpy of the same bytes, on fresh buffers, after checking that
// it copies right at this size (a kernel that does nothing would otherwise be the fastest).
void check_copy_speed(Check& check, CopyLauncher copy, const char* name) {
  const int rows = check.spec().size("size").first;
  const int cols = check.spec().size("size").second;
  const double threshold = check.spec().positive("min_share_of_memcpy");
  const double max_spread = check.spec().positive("max_spread");
  harness::TimingOptions options;
  options.repetitions = check.spec().param<int>("repetitions");

  auto in = DeviceBuffer::matrix("in", rows, cols);
  auto out = DeviceBuffer::matrix("out", rows, cols);
  auto reference_out = DeviceBuffer("reference_out", in.size(), 0);
  in.fill_random(check.seed_for("input"));
  const auto original = harness::device_copy(in, "in as it was");
  const auto size = fmt::format("{}x{}", rows, cols);
  const auto call = fmt::format("{}(in, out, {}, {})", name, rows, cols);

  const auto copies_right = [&] {
    return copies_exactly(*original, in, out) && out.check_guards().empty();
  };
  copy(in.data(), out.data(), rows, cols);
  harness::synchronize_after(call);
  if (!copies_right()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the {} copy is wrong, so its speed is not graded", size));
    return;
  }
  out.poison();

  const std::size_t bytes = in.size() * sizeof(float);
  const harness::TimedWork student{name, [&] { copy(in.data(), out.data(), rows, cols); },
                                   2.0 * static_cast<double>(bytes)};
  const auto timing = harness::measure_rounds(
      size, "GB/s", student, harness::memcpy_reference(in.data(), reference_out.data(), bytes),
      options, check.spec().rounds());
  harness::synchronize_after(call);
  if (!copies_right()) {
    check.set_verdict(Verdict::fail, fmt::format("the {} copy was wrong in the timed runs", size));
    return;
  }
  harness::judge_speed(check, timing, threshold, max_spread);
}

// The bonus checks run only for an attempt: copy_matrix_fast defined (bonus.cu in the build) and
// writing something. The starter's stub writes nothing: that is "not attempted", no extra points
// and no failure, rather than a wrong copy.
bool bonus_attempted(Check& check) {
  if (!LAB_STUDENT_DEFINES(copy_matrix_fast)) {
    check.set_verdict(Verdict::not_attempted,
                      "copy_matrix_fast is not defined (no bonus.cu): the bonus is optional");
    return false;
  }
  const int rows = 64;
  const int cols = 64;
  auto in = DeviceBuffer::matrix("in", rows, cols);
  auto out = DeviceBuffer::matrix("out", rows, cols);
  in.fill_random(check.seed_for("attempted"));
  copy_matrix_fast(in.data(), out.data(), rows, cols);
  harness::synchronize_after(fmt::format("copy_matrix_fast(in, out, {}, {})", rows, cols));
  const auto written = out.download();
  if (std::all_of(written.begin(), written.end(), [](float v) { return std::isnan(v); })) {
    check.set_verdict(
        Verdict::not_attempted,
        "copy_matrix_fast writes nothing (the starter's stub): the bonus is optional");
    return false;
  }
  return true;
}

}  // namespace

LAB_CHECK(CopyMatrix, Correctness) { check_copies_exactly(check, copy_matrix, "copy_matrix"); }

LAB_CHECK(CopyMatrix, OneThreadPerElement) {
  const auto observed = observe_launch(check, copy_matrix, "copy_matrix");
  if (!observed) return;
  const auto [rows, cols] = check.spec().size("size");
  const long long elements = 1LL * rows * cols;
  if (observed->threads >= elements) {
    check.set_verdict(Verdict::pass,
                      fmt::format("{} threads for {} elements", observed->threads, elements));
  } else {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} threads for {} elements: one thread per element needs a "
                                  "grid that covers the whole matrix",
                                  observed->threads, elements));
  }
}

LAB_CHECK(CopyMatrix, Speed) { check_copy_speed(check, copy_matrix, "copy_matrix"); }

LAB_CHECK(CopyMatrixStrided, Correctness) {
  check_copies_exactly(check, copy_matrix_strided, "copy_matrix_strided");
}

LAB_CHECK(CopyMatrixStrided, ElementsPerThread) {
  const auto observed = observe_launch(check, copy_matrix_strided, "copy_matrix_strided");
  if (!observed) return;
  const auto [rows, cols] = check.spec().size("size");
  const double needed = check.spec().positive("min_elements_per_thread");
  const double per_thread =
      static_cast<double>(rows) * cols / static_cast<double>(observed->threads);
  const auto summary = fmt::format("{} threads for {}x{} elements: {:.2f} elements per thread",
                                   observed->threads, rows, cols, per_thread);
  if (per_thread >= needed) {
    check.set_verdict(Verdict::pass, summary);
  } else {
    check.set_verdict(
        Verdict::fail,
        fmt::format("{}; needs {} or more (make the grid shorter in y)", summary, needed));
    check.diagnose(harness::make_diagnosis(
        "one_element_per_thread",
        fmt::format("{:.2f} elements per thread recorded; the loop in y never repeats",
                    per_thread)));
  }
}

LAB_CHECK(CopyMatrixStrided, Speed) {
  check_copy_speed(check, copy_matrix_strided, "copy_matrix_strided");
}

// ---- bonus (optional, extra points): copy_matrix_fast in bonus.cu ---------------------------

LAB_CHECK(CopyMatrixFast, Correctness) {
  if (!bonus_attempted(check)) return;
  check_copies_exactly(check, copy_matrix_fast, "copy_matrix_fast");
}

LAB_CHECK(CopyMatrixFast, ElementsPerThread) {
  if (!bonus_attempted(check)) return;
  const auto observed = observe_launch(check, copy_matrix_fast, "copy_matrix_fast");
  if (!observed) return;
  const auto [rows, cols] = check.spec().size("size");
  const double needed = check.spec().positive("min_elements_per_thread");
  const double per_thread =
      static_cast<double>(rows) * cols / static_cast<double>(observed->threads);
  const auto summary = fmt::format("{} threads for {}x{} elements: {:.1f} elements per thread",
                                   observed->threads, rows, cols, per_thread);
  if (per_thread >= needed) {
    check.set_verdict(Verdict::pass, summary);
  } else {
    check.set_verdict(Verdict::fail,
                      fmt::format("{}; needs {} or more: a grid-stride loop over float4s with a "
                                  "grid of a few blocks per SM",
                                  summary, needed));
  }
}

LAB_CHECK(CopyMatrixFast, Speed) {
  if (!bonus_attempted(check)) return;
  check_copy_speed(check, copy_matrix_fast, "copy_matrix_fast");
}
