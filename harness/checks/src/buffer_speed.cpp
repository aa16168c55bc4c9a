// Speed of a buffers-in, buffer-out lab as a share of a reference (cudaMemcpy's bandwidth by
// default). Every timed call works on inputs drawn for it and a poisoned output, and its output
// is verified on the GPU after it (harness/timing.hpp says why); the first inputs are verified
// before the timed calls and once more after them, whole (guards and inputs too).
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

// The expected output of the inputs the buffers hold now, on the GPU: from the lab's device
// reference, or from the inputs copied back and the CPU reference. Made again after each draw.
class DeviceExpected {
 public:
  DeviceExpected(const BufferLab& lab, CaseBuffers& buffers, const CaseSize& size)
      : lab_(lab),
        buffers_(buffers),
        size_(size),
        values_("expected", buffers.output().size(), 0),
        tolerance_("tolerance", buffers.output().size(), 0) {
    compute();
  }

  void compute() {
    if (lab_.device_reference()) {
      auto args = buffers_.args();
      args.output = values_.data();
      exact_ = !lab_.device_reference()(args, values_.data(), tolerance_.data());
      CUDA_CHECK(cudaDeviceSynchronize());
      return;
    }
    CaseData data;
    data.size = size_;
    for (const auto& input : buffers_.inputs()) data.inputs.push_back(input->download_values());
    const auto host = lab_.expected(data);
    values_.upload(host.values);
    exact_ = host.tolerance.empty();
    if (!exact_) tolerance_.upload(host.tolerance);
  }

  // The output against these values (NaN never passes).
  DeviceComparison compare(const DeviceBuffer& out) const {
    return compare_on_device(values_.data(), out.data(), exact_ ? nullptr : tolerance_.data(), 1.0,
                             out.size());
  }
  float expected_at(long long index) const { return element_on_device(values_.data(), index); }
  bool exact() const { return exact_; }

 private:
  const BufferLab& lab_;
  CaseBuffers& buffers_;
  CaseSize size_;
  DeviceBuffer values_;
  DeviceBuffer tolerance_;
  bool exact_ = true;
};

// "at (row, col): expected E, got G", for the first wrong element of the output.
std::string first_wrong_element(const BufferLab& lab, const CaseSize& size,
                                const DeviceExpected& expected, const DeviceBuffer& out,
                                const DeviceComparison& found) {
  const long long cols = std::max<long long>(1, lab.output().shape(size).cols);
  const long long index = found.first_mismatch;
  return fmt::format("at ({}, {}): expected {}, got {} ({} of {} elements wrong)", index / cols,
                     index % cols, expected.expected_at(index),
                     element_on_device(out.data(), index), found.mismatches, out.size());
}

// Why the output of the first inputs is wrong (empty when right): compared on the GPU, guards,
// inputs unchanged.
class WholeOutputCheck {
 public:
  WholeOutputCheck(const BufferLab& lab, CaseBuffers& buffers, const CaseSize& size)
      : lab_(lab), buffers_(buffers), size_(size), expected_(lab, buffers, size) {
    for (const auto& input : buffers.inputs()) {
      originals_.push_back(device_copy(*input, input->name() + " as it was"));
    }
  }

  std::string wrong() const {
    const auto& out = buffers_.output();
    if (const auto found = expected_.compare(out); found.mismatches > 0) {
      return fmt::format("{} wrong {}", out.name(),
                         first_wrong_element(lab_, size_, expected_, out, found));
    }
    if (!out.check_guards(1).empty()) return fmt::format("wrote outside {}", out.name());
    for (std::size_t i = 0; i < originals_.size(); ++i) {
      const auto& input = *buffers_.inputs()[i];
      if (!input.check_guards(1).empty()) return fmt::format("wrote outside {}", input.name());
      if (changed(*originals_[i], input)) {
        return fmt::format("the input {} was changed", input.name());
      }
    }
    return {};
  }

  static bool changed(const DeviceBuffer& original, const DeviceBuffer& now) {
    if (now.element() == Element::int32) {
      return count_differences_on_device(original.as<std::int32_t>(), now.as<std::int32_t>(),
                                         now.size()) > 0;
    }
    return count_differences_on_device(original.data(), now.data(), now.size()) > 0;
  }

  // The output's digest for the grader, for a lab compared exactly.
  std::string digest() const {
    if (!expected_.exact()) return {};
    return output_digest_on_device(buffers_.output().data(), buffers_.output().size());
  }

 private:
  const BufferLab& lab_;
  CaseBuffers& buffers_;
  CaseSize size_;
  DeviceExpected expected_;
  std::vector<std::unique_ptr<DeviceBuffer>> originals_;
};

double bytes_of_every_buffer(const CaseBuffers& buffers) {
  double bytes = static_cast<double>(buffers.output().bytes());
  for (const auto& input : buffers.inputs()) bytes += static_cast<double>(input->bytes());
  return bytes;
}

// The reference, timed on the case's buffers with an output of its own (so that it never writes
// where the student's is checked), poisoned before each of its calls as the student's is.
TimedWork speed_reference(const SpeedOptions& options, CaseBuffers& buffers, const DeviceArgs& args,
                          std::unique_ptr<DeviceBuffer>& reference_out) {
  TimedWork reference;
  if (options.reference) {
    reference_out = std::make_unique<DeviceBuffer>("reference_out", buffers.output().size(), 0);
    auto reference_args = args;
    reference_args.output = reference_out->data();
    reference = options.reference(reference_args);
  } else {
    const auto& largest =
        *std::max_element(buffers.inputs().begin(), buffers.inputs().end(),
                          [](const auto& a, const auto& b) { return a->bytes() < b->bytes(); });
    reference_out =
        std::make_unique<DeviceBuffer>("reference_out", largest->element(), largest->size(), 0);
    reference = memcpy_reference(largest->address(), reference_out->address(), largest->bytes());
  }
  reference.before = [out = reference_out.get()] { out->poison(); };
  return reference;
}

// Fresh work for every timed call: new inputs each round (the reference works on them too), the
// expected output made from them on the GPU, and the student's output (poisoned before its call)
// compared whole after it.
class TimedCalls {
 public:
  TimedCalls(Check& check, const BufferLab& lab, CaseBuffers& buffers, const CaseSize& size)
      : check_(check),
        lab_(lab),
        buffers_(buffers),
        size_(size),
        call_text_(lab.call_text(size)),
        expected_(lab, buffers, size) {}

  void draw_next() {
    buffers_.draw(check_.seed_for(next_timed_round_label()));
    expected_.compute();
  }

  std::string verify() {
    ++calls_;
    const auto& out = buffers_.output();
    if (const auto found = expected_.compare(out); found.mismatches > 0) {
      return fmt::format(
          "the {} timed call of {} left {} wrong {}: every timed call gets new inputs and an "
          "output set to NaN, so each must do the whole work",
          ordinal(calls_), call_text_, out.name(),
          first_wrong_element(lab_, size_, expected_, out, found));
    }
    if (!out.check_guards(1).empty()) {
      return fmt::format("the {} timed call of {} wrote outside {}", ordinal(calls_), call_text_,
                         out.name());
    }
    return {};
  }

 private:
  Check& check_;
  const BufferLab& lab_;
  CaseBuffers& buffers_;
  CaseSize size_;
  std::string call_text_;
  DeviceExpected expected_;
  int calls_ = 0;
};

}  // namespace

void check_speed(Check& check, const BufferLab& lab, const SpeedOptions& options) {
  const auto size = one_case_size(check.spec(), lab);
  const double threshold = check.spec().min_ratio(options.reference_name);
  const double max_spread = check.spec().positive("max_spread");
  TimingOptions timing_options;
  timing_options.repetitions = check.spec().param<int>("repetitions");

  const auto first_seed = check.seed_for("input");
  CaseBuffers buffers(lab, size, first_seed);
  const WholeOutputCheck whole(lab, buffers, size);
  const auto call = lab.call_text(size);
  const auto args = buffers.args();
  lab.run(args);
  synchronize_after(call);
  if (const auto wrong = whole.wrong(); !wrong.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} is wrong ({}), so its speed is not graded", call, wrong));
    return;
  }

  std::unique_ptr<DeviceBuffer> reference_out;
  auto reference = speed_reference(options, buffers, args, reference_out);
  TimedCalls timed(check, lab, buffers, size);
  timing_options.draw_inputs = [&] { timed.draw_next(); };
  const double work = options.work ? options.work(size) : bytes_of_every_buffer(buffers);
  TimedWork student{lab.name(), [&] { lab.run(args); }, work};
  student.before = [&] { buffers.output().poison(); };
  student.verify = [&] { return timed.verify(); };
  Timing timing;
  try {
    timing = measure_rounds(lab.case_label(size), options.rate_unit, student, reference,
                            timing_options, check.spec().rounds());
  } catch (const WrongTimedCall& wrong) {
    check.set_verdict(Verdict::fail, wrong.what());
    return;
  }

  // The first inputs again, and one more call checked whole: the output's digest for the grader.
  buffers.draw(first_seed);
  buffers.output().poison();
  lab.run(args);
  synchronize_after(call);
  if (const auto wrong = whole.wrong(); !wrong.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} was wrong after the timed runs ({})", call, wrong));
    return;
  }
  timing.output_digest = whole.digest();
  judge_share(check, timing, threshold, max_spread);
}

}  // namespace harness
