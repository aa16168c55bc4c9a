// A built lab program's runs for one submission: the correctness run (GPU shared; under
// memcheck when the batch hosts it, in rounds), the sanitizer pass after it, the speed run (GPU
// alone) with the checks memcheck left over (or, without a speed run, their own run, GPU shared),
// and the fallback sanitizer pass where the emulated pass could not look, each on the least busy
// GPU, gathering records and problems into the submission's outcome.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "batch/run_plan.hpp"
#include "batch/run_step.hpp"
#include "batch/sanitize_step.hpp"
#include "batch_state.hpp"

namespace batch {

class ProgramRuns {
 public:
  ProgramRuns(BatchState& batch, const std::string& slug, RunRequest request,
              std::vector<std::string> kernels, GradedOutcome& outcome,
              std::vector<std::string>& problems);

  // Called as soon as the correctness run ends (before the sanitizer pass) with its records and
  // the correctness checks it left to the speed run.
  std::function<void(const std::vector<contract::CheckRecord>&, const std::vector<std::string>&)>
      after_correctness;

  // The correctness run: GPU shared, under memcheck when the batch hosts it.
  void run_correctness();
  // The speed run: GPU alone, with a head start; the checks memcheck left over run in it
  // (batch/run_plan.hpp), or in their own run (run_leftover) when the lab has no speed check.
  void run_speed();
  // The checks the hosted memcheck run left over, GPU shared, without memcheck, where no speed
  // run carries them: none of the correctness cases came out right, or the lab has no speed
  // check.
  void run_leftover();

  // compute-sanitizer's pass (batch.sanitizer_fallback), GPU shared, for a submission the
  // emulated pass could not look at: after the speed run, so the GPU's queue does not wait for
  // the emulator.
  void fallback_sanitizer_pass(std::vector<contract::CheckRecord>& records);

 private:
  // A run with the GPU alone, marked `phase_name`@GPU in the timeline ("speed", "speed-again").
  RunOutcome run_alone_on_least_busy(const char* phase_name);
  RunOutcome run_alone(GpuGate& gate, const std::string& phase);
  RunOutcome run_shared(GpuGate& gate, const std::string& phase, int device);
  void share_with_others(GpuGate& gate);
  void take(RunOutcome& ran);
  bool hosts_memcheck() const;
  RunOutcome run_hosted_memcheck();
  void report_sanitizer_outcome(const SanitizerOutcome& outcome);
  void sanitizer_pass(int device, const SanitizerPass& pass,
                      std::vector<contract::CheckRecord>& records);

  BatchState& batch_;
  const std::string& slug_;
  RunRequest request_;
  std::vector<std::string> kernels_;             // the student's, for the hosted memcheck run
  std::vector<std::string> left_for_plain_run_;  // checks the hosted memcheck run left over
  GradedOutcome& outcome_;
  std::vector<std::string>& problems_;
};

}  // namespace batch
