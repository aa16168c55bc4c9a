// Speed of a buffers-in, buffer-out lab as a share of a reference (cudaMemcpy's bandwidth by
// default), at a size whose output is verified on the GPU before and after the timed runs.
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "buffer_case.hpp"
#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device_compare.hpp"
#include "harness/speed.hpp"
#include "harness/student_call.hpp"

namespace harness {

namespace {

// The expected output of the timed size, on the GPU: from the lab's device reference, or from
// the inputs copied back and the CPU reference.
struct DeviceExpected {
  std::unique_ptr<DeviceBuffer> values;
  std::unique_ptr<DeviceBuffer> tolerance;  // null: exact
};

DeviceExpected expected_on_device(const BufferLab& lab, CaseBuffers& buffers,
                                  const CaseSize& size) {
  const auto count = buffers.output().size();
  DeviceExpected expected{std::make_unique<DeviceBuffer>("expected", count, 0),
                          std::make_unique<DeviceBuffer>("tolerance", count, 0)};
  if (lab.device_reference()) {
    auto args = buffers.args();
    args.output = expected.values->data();
    const bool tolerant =
        lab.device_reference()(args, expected.values->data(), expected.tolerance->data());
    CUDA_CHECK(cudaDeviceSynchronize());
    if (!tolerant) expected.tolerance.reset();
    return expected;
  }
  CaseData data;
  data.size = size;
  for (const auto& input : buffers.inputs()) data.inputs.push_back(input->download());
  const auto host = lab.expected(data);
  expected.values->upload(host.values);
  if (host.tolerance.empty()) {
    expected.tolerance.reset();
  } else {
    expected.tolerance->upload(host.tolerance);
  }
  return expected;
}

// Why the output is wrong (empty when right): compared on the GPU, guards, inputs unchanged.
class TimedOutputCheck {
 public:
  TimedOutputCheck(const BufferLab& lab, CaseBuffers& buffers, const CaseSize& size)
      : buffers_(buffers), expected_(expected_on_device(lab, buffers, size)) {
    for (const auto& input : buffers.inputs()) {
      originals_.push_back(device_copy(*input, input->name() + " as it was"));
    }
  }

  std::string wrong() const {
    const auto& out = buffers_.output();
    const float* tolerance = expected_.tolerance ? expected_.tolerance->data() : nullptr;
    const auto found =
        compare_on_device(expected_.values->data(), out.data(), tolerance, 1.0, out.size());
    if (found.mismatches > 0) {
      return fmt::format("{} of {} elements of {} wrong", found.mismatches, out.size(), out.name());
    }
    if (!out.check_guards(1).empty()) return fmt::format("wrote outside {}", out.name());
    for (std::size_t i = 0; i < originals_.size(); ++i) {
      const auto& input = *buffers_.inputs()[i];
      if (!input.check_guards(1).empty()) return fmt::format("wrote outside {}", input.name());
      if (count_differences_on_device(originals_[i]->data(), input.data(), input.size()) > 0) {
        return fmt::format("the input {} was changed", input.name());
      }
    }
    return {};
  }

  // The output's digest for the grader, for a lab compared exactly.
  std::string digest() const {
    if (expected_.tolerance) return {};
    return output_digest_on_device(buffers_.output().data(), buffers_.output().size());
  }

 private:
  CaseBuffers& buffers_;
  DeviceExpected expected_;
  std::vector<std::unique_ptr<DeviceBuffer>> originals_;
};

double bytes_of_every_buffer(const BufferLab& lab, const CaseSize& size) {
  double elements = static_cast<double>(lab.output().shape(size).count());
  for (const auto& input : lab.inputs()) elements += static_cast<double>(input.shape(size).count());
  return elements * sizeof(float);
}

}  // namespace

void check_speed(Check& check, const BufferLab& lab, const SpeedOptions& options) {
  const auto sizes = case_sizes(check.spec(), options.size_key, lab);
  const auto size = sizes.front();
  const double threshold = check.spec().positive(options.threshold_key);
  const double max_spread = check.spec().positive("max_spread");
  TimingOptions timing_options;
  timing_options.repetitions = check.spec().param<int>("repetitions");

  CaseBuffers buffers(lab, size);
  buffers.fill_on_device(check.seed_for("input"));
  const TimedOutputCheck output(lab, buffers, size);
  const auto call = lab.call_text(size);
  const auto args = buffers.args();
  lab.run(args);
  synchronize_after(call);
  if (const auto wrong = output.wrong(); !wrong.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} is wrong ({}), so its speed is not graded", call, wrong));
    return;
  }
  buffers.output().poison();

  // The reference's own output, so that it never writes where the student's is checked.
  std::unique_ptr<DeviceBuffer> reference_out;
  TimedWork reference;
  if (options.reference) {
    reference_out = std::make_unique<DeviceBuffer>("reference_out", buffers.output().size(), 0);
    auto reference_args = args;
    reference_args.output = reference_out->data();
    reference = options.reference(reference_args);
  } else {
    const auto& largest =
        *std::max_element(buffers.inputs().begin(), buffers.inputs().end(),
                          [](const auto& a, const auto& b) { return a->size() < b->size(); });
    reference_out = std::make_unique<DeviceBuffer>("reference_out", largest->size(), 0);
    reference =
        memcpy_reference(largest->data(), reference_out->data(), largest->size() * sizeof(float));
  }
  const double work = options.work ? options.work(size) : bytes_of_every_buffer(lab, size);
  const TimedWork student{lab.name(), [&] { lab.run(args); }, work};
  auto timing = measure_rounds(lab.case_label(size), options.rate_unit, student, reference,
                               timing_options, check.spec().rounds());
  synchronize_after(call);
  if (const auto wrong = output.wrong(); !wrong.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} was wrong in the timed runs ({})", call, wrong));
    return;
  }
  timing.output_digest = output.digest();
  judge_share(check, timing, threshold, max_spread);
}

}  // namespace harness
