#include "sanitize_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "batch/sanitize_step.hpp"
#include "contract/exit_status.hpp"
#include "contract/grade.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"
#include "run_command.hpp"
#include "sanitize_catch.hpp"
#include "student_run.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;
using contract::CheckRecord;

// Why the pass cannot run here, or nothing when it can. The words never name a path: the student
// reads them under a skipped test.
std::optional<std::string> reason_to_skip(const SanitizeOptions& options,
                                          const std::vector<std::string>& tools) {
  if (options.sanitizer.empty()) {
    return "no compute-sanitizer: CMake did not find it when it configured this build (it comes "
           "with the CUDA toolkit; configure again once it is installed)";
  }
  if (::access(options.sanitizer.c_str(), X_OK) != 0) {
    return "compute-sanitizer, found when this build was configured, cannot be run any more "
           "(configure the build again)";
  }
  if (tools.empty()) return "the lab's spec names no compute-sanitizer tool";
  if (std::system("nvidia-smi -L > /dev/null 2>&1") != 0) {
    return "no GPU for compute-sanitizer";
  }
  return std::nullopt;
}

// The records the run left in the results folder, in spec order (a check it did not reach has
// none). A record that cannot be read is said and left out, as the report leaves it: one bad
// file must not stop the pass, whose failure would leave every check's test "Not Run".
std::vector<CheckRecord> records_of_the_run(const contract::LabSpec& spec,
                                            const std::filesystem::path& results_dir) {
  std::vector<CheckRecord> records;
  for (const auto& check : spec.checks) {
    const auto file = contract::record_path(results_dir, check.id);
    if (!std::filesystem::exists(file)) continue;
    try {
      records.push_back(contract::read_record(file));
    } catch (const std::exception& error) {
      std::printf("labcheck sanitize: %s's record cannot be read, left out: %s\n", check.id.c_str(),
                  error.what());
    }
  }
  return records;
}

double points_of(const contract::LabSpec& spec, const CheckRecord& record) {
  const auto* check = spec.find(record.check);
  return check ? contract::points_for(*check, record.verdict, record.fraction) : 0;
}

// The words under the check's own test (`labcheck verdict` prints its part of the output first):
// what the finding cost, which the reason after it explains at the line.
std::string cost_words(const contract::LabSpec& spec, const CheckRecord& before,
                       const CheckRecord& after) {
  const auto* check = spec.find(after.check);
  return fmt::format(
      "labcheck sanitize: compute-sanitizer's finding fails this check: it loses "
      "{:g} of its {:g} points ({:g} left)\n",
      points_of(spec, before) - points_of(spec, after), check ? check->points : 0.0,
      points_of(spec, after));
}

// Writes the records the pass changed (every record when it had problems, which each notes) and
// says under each charged check's test what it cost.
void keep_charged_records(const contract::LabSpec& spec, const std::filesystem::path& results_dir,
                          const std::vector<CheckRecord>& before,
                          const batch::SanitizerOutcome& outcome,
                          std::vector<CheckRecord>& records) {
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto& record = records[i];
    for (const auto& problem : outcome.problems) record.notes.push_back("labcheck: " + problem);
    const bool charged = outcome.failed_checks.count(record.check) > 0;
    if (!charged && outcome.problems.empty()) continue;
    if (charged) record.points = points_of(spec, record);  // for readers; graders recompute
    contract::write_record(results_dir, record);
    if (!charged) continue;
    const auto cost = cost_words(spec, before[i], record);
    std::ofstream(output_path(results_dir, record.check), std::ios::app) << cost;
    std::printf("%s: %s: %s\n%s", record.check.c_str(),
                std::string(contract::verdict_words(record.verdict)).c_str(), record.reason.c_str(),
                cost.c_str());
  }
}

// The pass after the graded run: the findings fail their checks in the run's records.
int charge_the_run(const SanitizeOptions& options, const contract::LabSpec& spec,
                   const batch::SanitizerPass& pass) {
  auto records = records_of_the_run(spec, options.results_dir);
  if (records.empty()) {
    std::printf("skipped: no result of the lab's run to look at (see the test labN.run)\n");
    return exit_status::skipped;
  }
  // The run's seed: the pass runs the same inputs the graded run did, as the batch's does.
  auto request = student_run_request(options.command, {}, records.front().seed);
  const auto before = records;
  const auto outcome = batch::sanitize_checks(spec, pass, request, records);
  if (request.interrupted->load()) return kInterrupted;
  // The log is the kit's (findings outside the student's files, the sanitizer's raw tail, which
  // can name the kit's paths): for whoever maintains the kit, on request, never in a student's
  // ctest output.
  if (std::getenv("LABS_SANITIZER_LOG")) {
    for (const auto& line : outcome.log)
      std::fprintf(stderr, "labcheck sanitize: %s\n", line.c_str());
  }
  if (outcome.runs == 0) {
    std::printf(
        "skipped: no correctness check earned points, so none has points to lose to a "
        "finding\n");
    return exit_status::skipped;
  }
  keep_charged_records(spec, options.results_dir, before, outcome, records);
  for (const auto& problem : outcome.problems) std::printf("labcheck: %s\n", problem.c_str());
  std::printf("compute-sanitizer: %d finding(s), %zu check(s) failed by them\n", outcome.findings,
              outcome.failed_checks.size());
  return exit_status::pass;
}

}  // namespace

int sanitize_command(const SanitizeOptions& options) {
  contract::LabSpec spec;
  try {
    spec = contract::load_spec(options.spec);
  } catch (const contract::SpecError& error) {
    std::fprintf(stderr, "labcheck sanitize: %s\n", error.what());
    return exit_status::bad_setup;
  }
  const auto tools = options.tools.empty() ? spec.sanitizer_tools : options.tools;
  if (const auto why = reason_to_skip(options, tools)) {
    std::printf("skipped: %s\n", why->c_str());
    return exit_status::skipped;
  }
  if (options.command.empty()) {
    std::fprintf(stderr, "labcheck sanitize: no program to run (give it after --)\n");
    return exit_status::bad_setup;
  }
  batch::SanitizerPass pass{options.sanitizer, tools, options.student_files};
  try {
    if (options.expect_findings) return judge_the_catch(options, spec, std::move(pass));
    if (options.expect_no_findings) return judge_clean(options, spec, std::move(pass));
    return charge_the_run(options, spec, pass);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labcheck sanitize: %s\n", error.what());
    return exit_status::bad_setup;
  }
}

}  // namespace grader
