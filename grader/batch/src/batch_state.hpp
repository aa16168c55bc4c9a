// What the steps of one `labgrade batch` share (batch.cpp makes it; the reference step, the
// submission step and the student files read it): the kit, the sandbox's limits, the seed, the
// reference's attestation and time limits, the cache, the GPUs and the build slots.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>

#include "batch/batch.hpp"
#include "batch/cache.hpp"
#include "batch/emulated_pass.hpp"
#include "batch/gpu_gate.hpp"
#include "batch/kit.hpp"
#include "batch/sanitize_step.hpp"
#include "batch/timeline.hpp"
#include "batch/verify.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {

struct LmsState;  // lms_step.hpp

struct BatchState {
  BatchState(const BatchOptions& batch_options, const std::atomic<bool>& interrupted_flag)
      : options(batch_options), interrupted(interrupted_flag) {}

  const BatchOptions& options;
  const std::atomic<bool>& interrupted;  // set by Ctrl-C or a kill: finish nothing new
  Kit kit;
  std::filesystem::path state;  // out/.labgrade
  sandbox::Policy base_policy;
  std::uint64_t seed = 0;
  Attestation attestation;  // the reference's exact outputs (reference step)
  std::unique_ptr<ResultCache> cache;
  std::unique_ptr<GpuPool> gpus;
  std::unique_ptr<std::counting_semaphore<1024>> builds;
  std::map<std::string, double> check_limits;  // from the reference solution's durations
  bool gpu_expected = false;  // the reference's checks were not skipped for want of a GPU
  std::unique_ptr<Timeline> timeline;
  SanitizerPass sanitizer;  // no sanitizer: no memory and race pass on the GPU
  // With an emulated pass, compute-sanitizer looks only where the emulator could not (a kernel.cu
  // it could not build, a check it did not finish): this pass, after the submission's speed run.
  SanitizerPass sanitizer_fallback;
  // The reference's sanitized runs did not finish (run_reference then runs the sanitizer as root).
  bool reference_sanitizer_unfinished = false;
  // The emulated pass (emulated_step.hpp): its kit, its slots (CPU only), the reference's.
  std::optional<EmulatedPass> emulated;
  std::unique_ptr<std::counting_semaphore<1024>> emulated_slots;
  std::shared_future<EmulatedOutcome> emulated_reference;  // valid once the reference's started
  std::once_flag emulated_unfit_said;
  std::shared_ptr<LmsState> lms;  // the roster (--roster); null without one
};

// What is built: kernel.cu and the optional files present (bonus.cu), by file name.
struct Sources {
  std::string kernel;
  std::map<std::string, std::string> optional;
};

}  // namespace batch
