#include "program_runs.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "batch/gpu_gate.hpp"
#include "batch/run_plan.hpp"
#include "reference_step.hpp"

namespace batch {

ProgramRuns::ProgramRuns(BatchState& batch, const std::string& slug, RunRequest request,
                         std::vector<std::string> kernels, GradedOutcome& outcome,
                         std::vector<std::string>& problems)
    : batch_(batch),
      slug_(slug),
      request_(std::move(request)),
      kernels_(std::move(kernels)),
      outcome_(outcome),
      problems_(problems) {}

void ProgramRuns::run_correctness() {
  request_.checks = checks_of_kind(batch_.kit.spec, false);
  if (request_.checks.empty()) return;
  auto [device, gate] = batch_.gpus->least_busy();
  request_.gpu = device;
  const auto phase = fmt::format("correctness@{}", device);
  batch_.timeline->mark(slug_, phase, "wait");
  RunOutcome ran = run_shared(*gate, phase, device);
  take(ran);
}

// The speed run carries the checks the hosted memcheck run left over (run_plan.hpp); when one of
// them failed, the speed checks that failed after it run once more in a process of their own.
void ProgramRuns::run_speed() {
  const auto left = left_for_plain_run_;
  request_.checks = speed_run_checks(batch_.kit.spec, left);
  if (request_.checks.empty()) return run_leftover();  // no speed check: no turn to ride in
  left_for_plain_run_.clear();
  RunOutcome ran = run_alone_on_least_busy("speed");
  const auto again = speed_checks_to_run_again(batch_.kit.spec, left, ran.records);
  if (!again.empty() && !ran.interrupted && !batch_.interrupted) {
    std::erase_if(ran.records, [&again](const contract::CheckRecord& record) {
      return std::find(again.begin(), again.end(), record.check) != again.end();
    });
    request_.checks = again;
    RunOutcome fresh = run_alone_on_least_busy("speed-again");
    take(fresh);
  }
  take(ran);
}

RunOutcome ProgramRuns::run_alone_on_least_busy(const char* phase_name) {
  auto [device, gate] = batch_.gpus->least_busy();
  request_.gpu = device;
  const auto phase = fmt::format("{}@{}", phase_name, device);
  batch_.timeline->mark(slug_, phase, "wait");
  return run_alone(*gate, phase);
}

// The checks the hosted memcheck run left over (structure checks, correctness checks too large
// for memcheck) in a shared run of their own, without memcheck, when no speed run carries them
// (none of the correctness cases came out right, or the lab has no speed check). Otherwise they
// ride in the speed run's process, in its turn (run_plan.hpp): every CUDA process's start and
// end takes the driver's lock, one for the whole host, so a process fewer per submission is what
// lets more GPUs help (16 processes starting at once: 5.41 s on one H200, 5.65 s spread over
// four). They once ran there before the program waited for its turn, holding its CUDA contexts
// and buffers: with 100 submissions on one H200, 84 such programs were alive at once, and
// correct kernels lost the checks that ran there (23 got 60 points, 16 nothing: 2026-11-28,
// docs/batch-grading-h100.md). Now a program waits for its turn only with a head start, a few
// per GPU, and runs every check after it.
void ProgramRuns::run_leftover() {
  if (left_for_plain_run_.empty()) return;
  request_.checks = std::exchange(left_for_plain_run_, {});
  auto [device, gate] = batch_.gpus->least_busy();
  request_.gpu = device;
  const auto phase = fmt::format("leftover@{}", device);
  batch_.timeline->mark(slug_, phase, "wait");
  SharedUse shared(*gate);
  share_with_others(*gate);
  batch_.timeline->mark(slug_, phase, "start");
  RunOutcome ran = run_checks(batch_.kit.spec, request_);
  batch_.timeline->mark(slug_, phase, "end");
  take(ran);
}

void ProgramRuns::take(RunOutcome& ran) {
  for (auto& record : ran.records) outcome_.records.push_back(std::move(record));
  problems_.insert(problems_.end(), ran.problems.begin(), ran.problems.end());
}

// The program starts now, while others may still use the GPU, and runs its checks once the GPU
// is its alone (gpu_gate.hpp, HeadStart: only a few per GPU wait so, each holding its CUDA
// contexts); it gives the GPU back when its last check is recorded. The GPU's time alone is
// spent timing, not starting or exiting.
RunOutcome ProgramRuns::run_alone(GpuGate& gate, const std::string& phase) {
  HeadStart head_start(gate);
  std::optional<ExclusiveUse> alone;
  bool started = false;
  bool ended = false;
  request_.run_alone = nullptr;  // alone from its first check on
  request_.take_turn = [&] {
    alone.emplace(gate);
    if (!std::exchange(started, true)) batch_.timeline->mark(slug_, phase, "start");
  };
  request_.end_turn = [&] {
    alone.reset();
    batch_.timeline->mark(slug_, phase, "end");
    ended = true;
  };
  RunOutcome ran = run_checks(batch_.kit.spec, request_);
  if (!started) batch_.timeline->mark(slug_, phase, "start");  // it ended before its turn
  alone.reset();
  if (!ended) batch_.timeline->mark(slug_, phase, "end");
  return ran;
}

// A shared run's hooks: no turn to wait for, and a check that runs out of time among shared runs
// gets a run with the GPU (and, under the emulation, the CPU) to itself before it fails. The
// caller holds the gate shared.
void ProgramRuns::share_with_others(GpuGate& gate) {
  request_.take_turn = nullptr;
  request_.end_turn = nullptr;
  request_.run_alone = [gate = &gate](const std::function<void()>& work) {
    gate->unlock_shared();
    {
      ExclusiveUse alone(*gate);
      work();
    }
    gate->lock_shared();
  };
}

RunOutcome ProgramRuns::run_shared(GpuGate& gate, const std::string& phase, int device) {
  SharedUse shared(gate);
  share_with_others(gate);
  batch_.timeline->mark(slug_, phase, "start");
  RunOutcome ran = hosts_memcheck() ? run_hosted_memcheck() : run_checks(batch_.kit.spec, request_);
  batch_.timeline->mark(slug_, phase, "end");
  if (after_correctness) after_correctness(ran.records, left_for_plain_run_);
  sanitizer_pass(device, batch_.sanitizer, ran.records);
  return ran;
}

void ProgramRuns::fallback_sanitizer_pass(std::vector<contract::CheckRecord>& records) {
  if (batch_.sanitizer_fallback.sanitizer.empty() || batch_.interrupted) return;
  auto [device, gate] = batch_.gpus->least_busy();
  batch_.timeline->mark(slug_, fmt::format("sanitizer@{}", device), "wait");
  SharedUse shared(*gate);
  request_.gpu = device;
  request_.take_turn = nullptr;  // the speed run's hooks are spent
  request_.end_turn = nullptr;
  request_.run_alone = nullptr;
  sanitizer_pass(device, batch_.sanitizer_fallback, records);
}

bool ProgramRuns::hosts_memcheck() const {
  return batch_.sanitizer.hosted_memcheck && !batch_.sanitizer.sanitizer.empty();
}

// The correctness checks run under memcheck (batch/sanitize_step.hpp); structure checks and the
// checks too large for memcheck wait for the speed run, which runs without it. memcheck ends a
// kernel at its bad access, and its reports slow the run: the records of a run with findings
// are kept only for the checks the findings fail, and the other checks run again, under memcheck
// again, until a run finds nothing new. So every record without a finding comes from a run that
// found nothing, and an error in one check costs no other check.
//
// At most kHostedMemcheckRuns such runs: a kernel that faults everywhere (every thread writing
// far outside, the sample class's mallory-illegal-address) made one finding a run, each run
// reaching its time limit under memcheck, and held the GPU shared for 270 s while every other
// submission's speed run waited (H100, 2026-11-28). The checks still left run in the speed run,
// without memcheck, as the checks too large for it do: their guard zones still catch writes
// outside the buffers there.
RunOutcome ProgramRuns::run_hosted_memcheck() {
  std::vector<std::string> remaining;
  for (const auto& id : request_.checks) {
    const auto* check = batch_.kit.spec.find(id);
    (check && check->kind == "correctness" ? remaining : left_for_plain_run_).push_back(id);
  }
  RunOutcome all;
  for (int round = 0; !remaining.empty() && !batch_.interrupted; ++round) {
    if (round == kHostedMemcheckRuns) {
      std::fprintf(stderr,
                   "labgrade batch: %s: memcheck found errors in %d runs; the %zu check(s) left "
                   "run without it\n",
                   slug_.c_str(), round, remaining.size());
      left_for_plain_run_.insert(left_for_plain_run_.end(), remaining.begin(), remaining.end());
      break;
    }
    RunRequest hosted = hosted_memcheck_request(request_, batch_.sanitizer, kernels_);
    hosted.checks = remaining;
    std::string output;
    hosted.on_output = [&output](std::string_view text) {
      if (output.size() < (8u << 20)) output.append(text);
    };
    RunOutcome ran = run_checks(batch_.kit.spec, hosted);
    const auto charged =
        charge_hosted_findings(batch_.kit.spec, batch_.sanitizer, output, ran.records);
    report_sanitizer_outcome(charged);
    const auto left = take_checks_left_for_plain_run(ran.records);
    left_for_plain_run_.insert(left_for_plain_run_.end(), left.begin(), left.end());
    all.processes += ran.processes;
    all.problems.insert(all.problems.end(), ran.problems.begin(), ran.problems.end());
    remaining.clear();
    for (auto& record : ran.records) {
      if (charged.failed_checks.empty() || charged.failed_checks.count(record.check)) {
        all.records.push_back(std::move(record));
      } else {
        remaining.push_back(record.check);
      }
    }
  }
  return all;
}

void ProgramRuns::report_sanitizer_outcome(const SanitizerOutcome& outcome) {
  // Whether compute-sanitizer runs in these sandboxes at all (run_reference's fallback to root).
  if (slug_ == kReferenceSlug && outcome.unfinished_runs > 0) {
    batch_.reference_sanitizer_unfinished = true;
  }
  problems_.insert(problems_.end(), outcome.problems.begin(), outcome.problems.end());
  for (const auto& line : outcome.log) {
    std::fprintf(stderr, "labgrade batch: %s: %s\n", slug_.c_str(), line.c_str());
  }
}

// The sanitizer pass (batch/sanitize_step.hpp), after the correctness run.
void ProgramRuns::sanitizer_pass(int device, const SanitizerPass& pass,
                                 std::vector<contract::CheckRecord>& records) {
  if (pass.sanitizer.empty() || pass_tools(pass).empty() || batch_.interrupted) return;
  // Sharing the GPU: the pass looks for errors, it times nothing.
  const auto sanitizer_phase = fmt::format("sanitizer@{}", device);
  batch_.timeline->mark(slug_, sanitizer_phase, "start");
  const auto sanitized = sanitize_checks(batch_.kit.spec, pass, request_, records);
  batch_.timeline->mark(slug_, sanitizer_phase, "end");
  report_sanitizer_outcome(sanitized);
}

}  // namespace batch
