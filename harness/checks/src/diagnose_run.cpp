#include "harness/diagnose_run.hpp"
#include "harness/student_call.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "harness/cuda_check.hpp"

namespace harness {

namespace {

constexpr int kNanGuardByte = 0xFF;     // every float in the guard reads NaN
constexpr int kStableGuardByte = 0xB1;  // finite floats (-5.2e-9), one byte per input

// A case's inputs (with guard zones) and an output, for re-runs of the case.
class RerunBuffers {
 public:
  // The same guard bytes in every experiment, unless `nan_guards`: a kernel that reads past its
  // inputs must not be taken for one whose output changes by itself.
  RerunBuffers(const CaseRerun& rerun, bool nan_guards) {
    int index = 0;
    for (const auto& input : rerun.inputs) {
      const int guard_byte = nan_guards ? kNanGuardByte : kStableGuardByte + index++;
      inputs_.push_back(
          std::make_unique<DeviceBuffer>(input.name, input.values.element(), input.values.size(),
                                         DeviceBuffer::matrix_guard(input.cols), guard_byte));
    }
    // Writes outside the output are diagnosed before any experiment runs; the guard only keeps
    // a stray write off other memory.
    output_ = std::make_unique<DeviceBuffer>(
        "output", rerun.output_size, std::clamp<std::size_t>(rerun.output_size, 4096, 1 << 20));
  }

  // One run: every buffer as it was made first (inputs uploaded, guards refilled, the output
  // `output_fill` or NaN), shared memory filled when asked, then the launcher. Every run on the
  // same buffers finds the same memory, inside the buffers and around them.
  std::vector<float> run(const CaseRerun& rerun, std::optional<float> output_fill,
                         std::optional<float> shared_fill) {
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      inputs_[i]->refill_guards();
      inputs_[i]->upload(rerun.inputs[i].values);
    }
    output_->refill_guards();
    if (output_fill) {
      output_->upload(std::vector<float>(rerun.output_size, *output_fill));
    } else {
      output_->poison();
    }
    std::vector<void*> pointers;
    for (auto& input : inputs_) pointers.push_back(input->address());
    CUDA_CHECK(cudaDeviceSynchronize());
    if (shared_fill) fill_student_shared_memory(*shared_fill);
    rerun.launch(pointers, output_->data());
    synchronize_after(rerun.call);
    return output_->download();
  }

 private:
  std::vector<std::unique_ptr<DeviceBuffer>> inputs_;  // DeviceBuffer does not move
  std::unique_ptr<DeviceBuffer> output_;
};

// The output of an experiment, or nothing when it fails (a fault marks the context lost, as a
// fault in a case does).
template <class Experiment>
std::optional<std::vector<float>> attempt(Experiment&& experiment) {
  if (lab_run().context_lost) return std::nullopt;
  try {
    return experiment();
  } catch (const CudaError& error) {
    if (error.sticky) lab_run().context_lost = true;
    return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

Experiments make_experiments(const CaseRerun& rerun) {
  Experiments e;
  if (in_sanitizer_pass() || !rerun.launch) return e;
  e.output_prefilled = [&rerun](float fill) {
    return attempt([&] { return RerunBuffers(rerun, false).run(rerun, fill, std::nullopt); });
  };
  // Made at the first run and kept for the others, freed with the experiments: runs that differ
  // on the same buffers differ by themselves (a race), not by what lies around new buffers.
  auto same_buffers = std::make_shared<std::unique_ptr<RerunBuffers>>();
  e.shared_prefilled = [&rerun, same_buffers](float fill) {
    return attempt([&] {
      if (!*same_buffers) *same_buffers = std::make_unique<RerunBuffers>(rerun, false);
      return (*same_buffers)->run(rerun, std::nullopt, fill);
    });
  };
  e.input_guards_nan = [&rerun] {
    return attempt(
        [&] { return RerunBuffers(rerun, true).run(rerun, std::nullopt, std::nullopt); });
  };
  return e;
}

CaseLaunchCapture::CaseLaunchCapture() {
  if (in_sanitizer_pass()) return;
  recorder_.emplace();
  if (!recorder_->unavailable_reason().empty()) recorder_.reset();
}

std::optional<RecordedActivity> CaseLaunchCapture::stop() {
  if (!recorder_) return std::nullopt;
  auto activity = recorder_->stop();
  recorder_.reset();
  return activity;
}

std::optional<LaunchShape> main_launch(const std::optional<RecordedActivity>& activity) {
  if (!activity || activity->kernels.empty()) return std::nullopt;
  const auto& biggest = *std::max_element(
      activity->kernels.begin(), activity->kernels.end(),
      [](const KernelLaunch& a, const KernelLaunch& b) { return a.threads() < b.threads(); });
  LaunchShape shape;
  for (int i = 0; i < 3; ++i) {
    shape.grid[i] = biggest.grid[i];
    shape.block[i] = biggest.block[i];
  }
  return shape;
}

std::optional<bool> any_shared_memory(const std::optional<RecordedActivity>& activity) {
  if (!activity || activity->kernels.empty()) return std::nullopt;
  return std::any_of(activity->kernels.begin(), activity->kernels.end(), [](const auto& k) {
    return k.static_shared_bytes + k.dynamic_shared_bytes > 0;
  });
}

void diagnose_failed_case(CaseResult& result, const FailedCase& failed) {
  // The blocks of a 2D launch are the tiles the student thinks in: draw them on the map.
  if (result.error_map && failed.launch && failed.launch->block[0] > 1 &&
      failed.launch->block[1] > 1) {
    result.error_map->tile_rows = failed.launch->block[1];
    result.error_map->tile_cols = failed.launch->block[0];
  }
  if (result.verdict == Verdict::pass || result.diagnosis || lab_run().context_lost) return;
  try {
    const auto got = failed.output->download();
    DiagnosisInput in;
    in.expected = *failed.expected;
    in.got = got;
    if (failed.tolerance) in.tolerance = *failed.tolerance;
    in.rows = failed.rows;
    in.cols = failed.cols;
    in.out_of_bounds = result.out_of_bounds;
    in.launch = failed.launch;
    in.uses_shared_memory = failed.uses_shared_memory;
    in.product = failed.product;
    // One output element made from one input: a reduction, whose wrong sum may be a part's.
    if (failed.rows * failed.cols == 1 && failed.rerun && failed.rerun->inputs.size() == 1 &&
        failed.rerun->inputs[0].values.element() == Element::float32) {
      const auto& values = failed.rerun->inputs[0].values;
      in.reduced_input = Floats(values.as<float>(), values.size());
    }
    if (failed.rerun) in.experiments = make_experiments(*failed.rerun);
    const auto findings = examine_case(in);
    result.diagnosis = findings.diagnosis;
    result.output_repeats = findings.output_repeats;
  } catch (const CudaError& error) {
    if (error.sticky) lab_run().context_lost = true;
  } catch (const std::exception&) {
    // A diagnosis that cannot be made leaves the verdict as it is.
  }
}

}  // namespace harness
