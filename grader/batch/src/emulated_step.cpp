#include "emulated_step.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "batch/evidence_share.hpp"
#include "reference_step.hpp"
#include "submission_step.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

void say(const std::string& slug, const std::string& line) {
  std::fprintf(stderr, "labgrade batch: %s: %s\n", slug.c_str(), line.c_str());
}

// One pass in an emulated slot, from its own copy of the sources (the GPU's scratch folder goes
// when the GPU's runs end).
EmulatedOutcome run_in_a_slot(BatchState& batch, const std::string& slug, const Sources& sources,
                              const std::vector<std::string>& checks) {
  batch.timeline->mark(slug, kEmulatedPhase, "wait");
  batch.emulated_slots->acquire();
  batch.timeline->mark(slug, kEmulatedPhase, "start");
  EmulatedRun run;
  run.scratch = batch.state / "emulated" / slug;
  prepare_scratch(run.scratch, sources);
  run.checks = checks;
  run.base_policy = batch.base_policy;
  run.seed = batch.seed;
  run.build_seconds = batch.options.build_seconds;
  run.interrupted = &batch.interrupted;
  EmulatedOutcome outcome;
  try {
    outcome = run_emulated_pass(*batch.emulated, run);
  } catch (const std::exception& error) {
    outcome.problems.push_back(
        "the CPU emulation's memory and race pass did not run; its findings are not known");
    outcome.log.push_back(fmt::format("emulated pass: {}", error.what()));
  }
  std::error_code ignored;
  fs::remove_all(run.scratch, ignored);
  batch.emulated_slots->release();
  batch.timeline->mark(slug, kEmulatedPhase, "end");
  return outcome;
}

// Whether the pass may charge students: its run on the reference solution found nothing and
// finished (or there was no reference run). Waits for the reference's pass.
bool kit_is_fit(BatchState& batch) {
  // A copy of its own: threads may wait on one shared state, each through its own shared_future.
  const std::shared_future<EmulatedOutcome> reference_pass = batch.emulated_reference;
  if (!reference_pass.valid()) return true;
  const EmulatedOutcome& reference = reference_pass.get();
  if (reference.findings.words.empty() && reference.problems.empty()) return true;
  std::call_once(batch.emulated_unfit_said, [&] {
    const std::string why = !reference.findings.words.empty()
                                ? reference.findings.words.begin()->second.front()
                                : reference.problems.front();
    std::fprintf(
        stderr,
        "warning: the emulated pass on the reference solution: %s; its findings are not "
        "charged to any student%s (check the emulation kit %s)\n",
        why.c_str(),
        batch.sanitizer_fallback.sanitizer.empty() ? "" : ": compute-sanitizer looks instead",
        batch.emulated->kit.dir.c_str());
  });
  return false;
}

}  // namespace

EmulatedPassInFlight::EmulatedPassInFlight(BatchState& batch, const std::string& slug,
                                           const Sources& sources,
                                           const std::vector<contract::CheckRecord>& records,
                                           const std::vector<std::string>& pending)
    : batch_(batch), slug_(slug) {
  if (!batch.emulated || batch.interrupted) return;
  auto checks = checks_for_emulated_pass(batch.emulated->kit.spec, records, pending);
  if (checks.empty()) return;
  running_ = std::async(std::launch::async, [&batch, slug, sources, checks = std::move(checks)] {
               return run_in_a_slot(batch, slug, sources, checks);
             }).share();
}

EmulatedPassInFlight::~EmulatedPassInFlight() {
  if (running_.valid()) running_.wait();  // no thread outlives the submission's step
}

bool EmulatedPassInFlight::finish(std::vector<contract::CheckRecord>& records,
                                  std::vector<std::string>& problems) {
  if (!running_.valid()) return true;
  if (slug_ == kReferenceSlug) {
    batch_.emulated_reference = std::move(running_);  // the batch waits for it at its end
    return true;
  }
  const EmulatedOutcome& outcome = running_.get();
  for (const auto& line : outcome.log) say(slug_, line);
  if (batch_.interrupted) return true;
  if (!kit_is_fit(batch_)) return false;
  share_evidence(outcome.findings.evidence, records);
  if (!outcome.findings.words.empty()) {
    const int failed = apply_emulated_findings(outcome.findings, records);
    const int named = static_cast<int>(outcome.findings.words.size()) - failed;
    if (failed > 0) say(slug_, fmt::format("the emulated pass failed {} check(s)", failed));
    if (named > 0)
      say(slug_, fmt::format("the emulated pass named the line in {} failed check(s)", named));
  }
  if (outcome.problems.empty()) return true;
  // Where the GPU's pass will look, what the emulator did not see is no problem of the student's.
  if (batch_.sanitizer_fallback.sanitizer.empty()) {
    problems.insert(problems.end(), outcome.problems.begin(), outcome.problems.end());
  }
  return false;
}

}  // namespace batch
