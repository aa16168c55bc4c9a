// What the LMS files say of one student: the score in the LMS's points and a few sentences of
// feedback made of the spec's and the grader's words only.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "exports/lms_gradebooks.hpp"
#include "exports/text.hpp"

namespace exports {
namespace {

// Titles of the checks not passed are listed up to this many; the report has them all.
constexpr std::size_t kMostChecksListed = 8;

std::string lab_words(const contract::LabSpec& spec) {
  const std::string title = text::clean(spec.title, false);
  return title.empty() ? spec.lab : fmt::format("{} ({})", spec.lab, title);
}

std::string not_passed(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  std::string listed;
  std::size_t count = 0;
  std::size_t more = 0;
  for (const contract::CheckSpec& check : spec.checks) {
    const contract::Verdict verdict = check_verdict(outcome, check.id);
    if (contract::verdict_class(verdict) != contract::VerdictClass::failed) continue;
    if (count == kMostChecksListed) {
      ++more;
      continue;
    }
    listed += fmt::format("{}{} ({} of {})", count++ > 0 ? "; " : "",
                          text::clean(check.title.empty() ? check.id : check.title, false),
                          contract::format_points(check_points(outcome, check.id)),
                          contract::format_points(check.points));
  }
  if (count == 0) return "";
  std::string words = " Not passed: " + listed;
  if (more > 0) words += fmt::format("; and {} more", more);
  return words + ".";
}

}  // namespace

std::optional<double> lms_score(const contract::LabSpec& spec, const StudentOutcome& outcome,
                                std::optional<double> lms_points, bool capped) {
  if (grader_unfinished(outcome)) return std::nullopt;
  double score = total_points(spec, outcome);
  const double spec_points = spec.total_points();
  if (lms_points && spec_points > 0) score = score * *lms_points / spec_points;
  if (lms_points && capped) score = std::min(score, *lms_points);
  return std::round(score * 100) / 100;
}

std::string lms_feedback(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  const std::string lab = lab_words(spec);
  const std::string status = text::clean(outcome.status, false);
  if (grader_unfinished(outcome)) {
    return fmt::format("{}: not graded yet ({}); the grader will run it again.", lab, status);
  }
  if (!outcome.grade) {
    return fmt::format("{}: 0 / {} points: {}. Your grade report says why.", lab,
                       contract::format_points(spec.total_points()), status);
  }
  std::string words = fmt::format("{}: {}.", lab, contract::format_score(*outcome.grade));
  words += not_passed(spec, outcome);
  if (const auto limit = contract::without_gpu(*outcome.grade)) {
    words += fmt::format(" Graded without a GPU: {}.", contract::gpu_only_words(*limit));
  }
  if (outcome.status != kGradedStatus) words += fmt::format(" Note: {}.", status);
  return words + " Your grade report has the details.";
}

}  // namespace exports
