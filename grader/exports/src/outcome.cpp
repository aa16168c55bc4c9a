#include "exports/outcome.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace exports {

const contract::CheckGrade* find_check(const StudentOutcome& outcome, std::string_view check_id) {
  if (!outcome.grade) return nullptr;
  for (const auto& check : outcome.grade->checks) {
    const std::string_view id =
        check.spec ? std::string_view(check.spec->id)
                   : (check.record ? std::string_view(check.record->check) : std::string_view());
    if (id == check_id) return &check;
  }
  return nullptr;
}

double check_points(const StudentOutcome& outcome, std::string_view check_id) {
  const auto* check = find_check(outcome, check_id);
  return check && std::isfinite(check->points) ? check->points : 0.0;
}

contract::Verdict check_verdict(const StudentOutcome& outcome, std::string_view check_id) {
  const auto* check = find_check(outcome, check_id);
  return check ? check->verdict : contract::Verdict::not_run;
}

double total_points(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  double total = 0;
  for (const auto& check : spec.checks) total += check_points(outcome, check.id);
  return total;
}

std::size_t implausible_checks(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  return static_cast<std::size_t>(
      std::count_if(spec.checks.begin(), spec.checks.end(), [&](const contract::CheckSpec& check) {
        return check_verdict(outcome, check.id) == contract::Verdict::implausible;
      }));
}

bool has_problems(const StudentOutcome& outcome) {
  return !outcome.grade || outcome.status != kGradedStatus || !outcome.grade->problems.empty();
}

bool grader_unfinished(const StudentOutcome& outcome) {
  return !outcome.grade &&
         (outcome.status == kInterruptedStatus || outcome.status == kGraderErrorStatus ||
          outcome.status == kNotGradedStatus);
}

bool graded_under_emulation(std::span<const StudentOutcome> outcomes) {
  return std::any_of(outcomes.begin(), outcomes.end(),
                     [](const StudentOutcome& o) { return o.grade && o.grade->emulated; });
}

}  // namespace exports
