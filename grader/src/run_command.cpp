#include "run_command.hpp"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "harness/record.hpp"
#include "harness/spec.hpp"
#include "process.hpp"

namespace grader {
namespace {

constexpr int kExitPass = 0;
constexpr int kExitFail = 1;
constexpr int kExitSetup = 2;
constexpr int kExitSkipped = 77;

harness::CheckRecord record_for(const harness::LabSpec& spec, const harness::CheckSpec& check) {
  harness::CheckRecord record;
  record.lab = spec.lab;
  record.check = check.id;
  record.kind = check.kind;
  record.title = check.title;
  record.started_at = harness::utc_timestamp();
  record.backend.clear();  // the process left no record: which backend ran it is not known
  return record;
}

// Why the process ended without a trustworthy record, in words a student can act on.
std::string explain(const ProcessOutcome& outcome, double timeout_s) {
  const auto how = describe(outcome, timeout_s);
  if (outcome.timed_out) {
    return fmt::format(
        "the check {}: the kernel or launcher never finished (an endless loop? a "
        "grid far too large?)",
        how);
  }
  if (outcome.signal) {
    return fmt::format(
        "the test process crashed ({}): does the launcher dereference a device "
        "pointer on the host, or overrun a host array?",
        how);
  }
  if (outcome.exit_code == kExitSetup) {
    return "the lab program could not start the check (bad arguments or lab spec: see its output)";
  }
  return fmt::format("the test process ended ({}) without recording a result for this check", how);
}

}  // namespace

int run_check_command(const RunOptions& options) {
  harness::LabSpec spec;
  try {
    spec = harness::load_spec(options.spec);
  } catch (const harness::SpecError& error) {
    std::fprintf(stderr, "labgrade run: %s\n", error.what());
    return kExitSetup;
  }
  const auto* check = spec.find(options.check);
  if (!check) {
    std::fprintf(stderr, "labgrade run: %s has no check '%s'\n", options.spec.c_str(),
                 options.check.c_str());
    return kExitSetup;
  }
  if (options.command.empty()) {
    std::fprintf(stderr, "labgrade run: no program to run (give it after --)\n");
    return kExitSetup;
  }
  // A record left from an earlier run must not be taken for this run's result.
  const auto record_file = harness::record_path(options.results_dir, check->id);
  std::error_code ignored;
  std::filesystem::remove(record_file, ignored);

  std::fflush(stdout);
  const auto outcome = run_process(options.command, options.timeout_s);

  std::optional<harness::CheckRecord> record;
  if (std::filesystem::exists(record_file)) {
    try {
      record = harness::read_record(record_file);
    } catch (const harness::RecordError& error) {
      std::fprintf(stderr, "labgrade run: %s\n", error.what());
    }
  }
  const bool ended_normally = !outcome.timed_out && !outcome.signal && !outcome.failed_to_start;

  if (ended_normally && outcome.exit_code == kExitSkipped) return kExitSkipped;
  if (ended_normally && record &&
      (outcome.exit_code == kExitPass || outcome.exit_code == kExitFail)) {
    // An optional check left alone (not_attempted) ends the program with 0, like a pass.
    const bool passed = record->verdict == harness::Verdict::pass ||
                        record->verdict == harness::Verdict::not_attempted;
    if (passed == (outcome.exit_code == kExitPass)) return outcome.exit_code;
    // The record and the exit status disagree: believe neither.
    record->verdict = harness::Verdict::error;
    record->reason = fmt::format("the result record says {} but the process ended with {}",
                                 passed ? "pass" : "not passed", describe(outcome, 0));
    record->fraction = 0;
    harness::write_record(options.results_dir, *record);
    std::fprintf(stderr, "%s: %s\n", check->id.c_str(), record->reason.c_str());
    return kExitFail;
  }

  auto written = record.value_or(record_for(spec, *check));
  written.verdict = outcome.exit_code == kExitSetup && ended_normally ? harness::Verdict::error
                                                                      : harness::Verdict::fail;
  written.reason = explain(outcome, options.timeout_s);
  written.fraction = 0;
  written.duration_s = outcome.seconds;
  harness::write_record(options.results_dir, written);
  std::fprintf(stderr, "%s: %s\n", check->id.c_str(), written.reason.c_str());
  return kExitFail;
}

}  // namespace grader
