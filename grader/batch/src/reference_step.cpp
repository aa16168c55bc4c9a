#include "reference_step.hpp"

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "batch/files.hpp"
#include "batch/run_step.hpp"
#include "batch/time_limits.hpp"
#include "submission_step.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using contract::Verdict;

// The reference kernel and the optional files beside it.
Sources reference_sources(const Kit& kit) {
  Sources sources{read_whole_file(kit.reference_kernel), {}};
  for (const auto& name : kit.optional_sources) {
    const fs::path beside = kit.reference_kernel.parent_path() / name;
    if (fs::exists(beside)) sources.optional[name] = read_whole_file(beside);
  }
  return sources;
}

// False when the reference fails a correctness check; warns of the rest. Counts the skipped.
bool reference_passes(const std::vector<contract::CheckRecord>& records, int& skipped) {
  bool usable = true;
  for (const auto& record : records) {
    if (record.verdict == Verdict::skipped) {
      ++skipped;
    } else if (record.verdict != Verdict::pass && record.kind != "speed") {
      std::fprintf(stderr, "error: the reference solution fails %s: %s\n", record.check.c_str(),
                   record.reason.c_str());
      usable = false;
    } else if (record.verdict != Verdict::pass) {
      // A reason may open with its verdict's words already ("not measured: emulation ...").
      const std::string words(contract::verdict_words(record.verdict));
      const bool worded = record.reason.rfind(words + ":", 0) == 0;
      std::fprintf(stderr, "warning: the reference solution's %s: %s%s\n", record.check.c_str(),
                   worded ? "" : (words + ": ").c_str(), record.reason.c_str());
    }
  }
  return usable;
}

// The time-limit policy (batch/time_limits.hpp) applied to the reference's durations.
void take_time_limits(BatchState& batch, const std::vector<contract::CheckRecord>& records) {
  const ReferenceLimits limits = limits_from_reference(records);
  std::string listed;  // in the records' order
  for (const auto& record : records) {
    const auto limit = limits.seconds.find(record.check);
    if (limit == limits.seconds.end()) continue;
    batch.check_limits[record.check] = limit->second;
    listed += fmt::format("{}{} {:.0f} s", listed.empty() ? "" : ", ", record.check, limit->second);
  }
  if (!listed.empty()) {
    std::fprintf(stderr,
                 "time limits from the reference's durations (x%.0f, at least %.0f s): %s\n",
                 limits.over_reference, kLeastCheckLimit, listed.c_str());
  }
}

// compute-sanitizer under the runs' own uid (SanitizerPass::as_root false) whose runs of the
// reference did not finish (a file of the toolkit that others cannot read after all): every run
// under it goes back to root without capabilities, as before, and the instructor is told what
// that costs. Only unfinished runs decide it, not a reference that fails its checks.
bool sanitizer_back_to_root(BatchState& batch) {
  const bool own_uid =
      (!batch.sanitizer.sanitizer.empty() && !batch.sanitizer.as_root) ||
      (!batch.sanitizer_fallback.sanitizer.empty() && !batch.sanitizer_fallback.as_root);
  if (!own_uid || !batch.reference_sanitizer_unfinished) return false;
  std::fprintf(stderr,
               "warning: compute-sanitizer did not finish the reference solution's runs under "
               "the runs' own uid: it runs as root without capabilities instead, where "
               "RLIMIT_NPROC does not cap a fork bomb's processes\n");
  batch.sanitizer.as_root = true;
  batch.sanitizer_fallback.as_root = true;
  batch.reference_sanitizer_unfinished = false;
  return true;
}

}  // namespace

bool run_reference(BatchState& batch) {
  if (!batch.options.verify_with_reference) return true;
  if (batch.kit.reference_kernel.empty() || !fs::exists(batch.kit.reference_kernel)) {
    std::fprintf(stderr,
                 "warning: no reference solution in the kit: outputs are not verified by the "
                 "grader, only the records the programs send\n");
    return true;
  }
  std::fprintf(stderr, "grading the reference solution %s first...\n",
               batch.kit.reference_kernel.c_str());
  GradedOutcome outcome;
  for (int attempt = 1;; ++attempt) {
    try {
      outcome = build_and_run(batch, kReferenceSlug, reference_sources(batch.kit));
      break;
    } catch (const std::exception& error) {
      if (!refused_by_host_task_limit(error) || attempt == kHostRefusalAttempts) {
        std::fprintf(stderr, "error: the reference solution: %s\n", error.what());
        return false;
      }
      std::fprintf(stderr, "the reference solution: %s: run again\n", error.what());
      pause_before_attempt(attempt + 1);
    }
  }
  if (outcome.status != Status::graded) {
    std::fprintf(stderr, "error: the reference solution did not build or run (%s):\n%s\n",
                 std::string(status_words(outcome.status)).c_str(), outcome.build_output.c_str());
    return false;
  }
  int skipped = 0;
  const bool usable = reference_passes(outcome.records, skipped);
  if (sanitizer_back_to_root(batch)) return run_reference(batch);
  batch.gpu_expected = skipped == 0 && !outcome.records.empty();
  if (skipped > 0) {
    std::fprintf(stderr,
                 "warning: %d check(s) were skipped for the reference solution (%s): no usable "
                 "GPU, so every submission's checks will be skipped too\n",
                 skipped, outcome.records.front().reason.c_str());
  }
  take_time_limits(batch, outcome.records);
  batch.attestation = attestation_of(outcome.records);
  std::fprintf(stderr, "reference solution: %zu exact outputs to check submissions against\n",
               batch.attestation.size());
  return usable;
}

}  // namespace batch
