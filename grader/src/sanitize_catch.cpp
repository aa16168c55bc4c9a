#include "sanitize_catch.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "contract/exit_status.hpp"
#include "contract/record.hpp"
#include "contract/seed.hpp"
#include "student_run.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;
using contract::CheckRecord;

// Every correctness check as if it had earned its points, so that the pass looks at all of them:
// a known-wrong kernel usually fails them anyway, and the question is whether the tool sees why.
std::vector<CheckRecord> every_correctness_check_earned(const contract::LabSpec& spec) {
  std::vector<CheckRecord> records;
  for (const auto& check : spec.checks) {
    if (check.kind != "correctness") continue;
    CheckRecord record;
    record.lab = spec.lab;
    record.check = check.id;
    record.kind = check.kind;
    record.title = check.title;
    record.verdict = contract::Verdict::pass;
    record.fraction = 1;
    records.push_back(record);
  }
  return records;
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

// The pass over every correctness check, every case, as if each had earned its points; nullopt
// when interrupted. Prints the pass's problems, and its log (a kit maintainer's test, never a
// student's).
std::optional<batch::SanitizerOutcome> sanitize_every_case(const SanitizeOptions& options,
                                                           const contract::LabSpec& spec,
                                                           batch::SanitizerPass pass,
                                                           std::vector<CheckRecord>& records) {
  pass.first_case_only = false;
  records = every_correctness_check_earned(spec);
  auto request = student_run_request(options.command, {}, contract::choose_seed(std::nullopt));
  auto outcome = batch::sanitize_checks(spec, pass, request, records);
  if (request.interrupted->load()) return std::nullopt;
  for (const auto& line : outcome.log)
    std::fprintf(stderr, "labcheck sanitize: %s\n", line.c_str());
  for (const auto& problem : outcome.problems) std::printf("labcheck: %s\n", problem.c_str());
  return outcome;
}

// The status to end with before judging: interrupted, or skipped when nothing ran (the lab
// program found no usable GPU), as the deleted run_sanitizer.sh passed the program's 77 on.
std::optional<int> ended_early(const std::optional<batch::SanitizerOutcome>& outcome) {
  if (!outcome) return kInterrupted;
  if (outcome->failed_checks.empty() && outcome->runs > 0 && outcome->judged_records == 0) {
    std::printf("skipped: the lab program ran no check under compute-sanitizer (no usable GPU)\n");
    return exit_status::skipped;
  }
  return std::nullopt;
}

}  // namespace

int judge_the_catch(const SanitizeOptions& options, const contract::LabSpec& spec,
                    batch::SanitizerPass pass) {
  std::vector<CheckRecord> records;
  const auto outcome = sanitize_every_case(options, spec, pass, records);
  if (const auto status = ended_early(outcome)) return *status;
  std::filesystem::remove_all(options.results_dir);  // no record of an earlier run stays
  std::filesystem::create_directories(options.results_dir);
  for (const auto& record : records) {
    if (!outcome->failed_checks.count(record.check)) continue;
    contract::write_record(options.results_dir, record);
    std::printf("caught in %s: %s\n", record.check.c_str(), record.reason.c_str());
  }
  if (!outcome->failed_checks.empty()) {
    std::printf("caught: compute-sanitizer %s charged %zu check(s), as it must\n",
                joined(pass.tools).c_str(), outcome->failed_checks.size());
    return exit_status::pass;
  }
  std::printf("NOT CAUGHT: compute-sanitizer %s charged no check with a finding in %s\n",
              joined(pass.tools).c_str(), joined(pass.student_files).c_str());
  return exit_status::fail;
}

int judge_clean(const SanitizeOptions& options, const contract::LabSpec& spec,
                batch::SanitizerPass pass) {
  std::vector<CheckRecord> records;
  const auto outcome = sanitize_every_case(options, spec, pass, records);
  if (const auto status = ended_early(outcome)) return *status;
  bool bad = false;
  for (const auto& record : records) {
    if (!outcome->failed_checks.count(record.check)) continue;
    std::printf("INNOCENT LOST POINTS: %s: %s\n", record.check.c_str(), record.reason.c_str());
    bad = true;
  }
  // A finding in the kit's own kernels under a right kernel is the kit's bug (charged to nobody).
  for (const auto& line : outcome->log) {
    if (line.find("outside the student's files") == std::string::npos) continue;
    std::printf("KIT FINDING: %s\n", line.c_str());
    bad = true;
  }
  if (bad) return exit_status::fail;
  std::printf("clean: compute-sanitizer %s found nothing in %d run(s), as it must not\n",
              joined(pass.tools).c_str(), outcome->runs);
  return exit_status::pass;
}

}  // namespace grader
