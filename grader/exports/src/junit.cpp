#include "exports/junit.hpp"

#include <fmt/format.h>

#include "exports/text.hpp"
#include "reports/ceiling.hpp"

namespace exports {
namespace {

constexpr std::size_t kMaxTextBytes = 64 * 1024;

std::string attr(std::string_view text) { return text::xml_escape(text, true); }
std::string body(std::string_view text) {
  return text::xml_escape(text::truncate(text::clean(text), kMaxTextBytes));
}

struct Counts {
  std::size_t tests = 0, failures = 0, skipped = 0;
  double time = 0;
};

enum class JunitOutcome { passed, skipped, failure };

// JUnit has no "not judged": inconclusive is a skip there (a noisy GPU is no test failure), and an
// implausible speed a failure like a wrong answer. Every verdict is listed, so a new one must be
// placed here.
JunitOutcome junit_outcome(contract::Verdict verdict) {
  switch (verdict) {
    case contract::Verdict::pass:
      return JunitOutcome::passed;
    case contract::Verdict::skipped:
    case contract::Verdict::inconclusive:
    case contract::Verdict::not_measured:
    case contract::Verdict::not_attempted:
      return JunitOutcome::skipped;
    case contract::Verdict::fail:
    case contract::Verdict::error:
    case contract::Verdict::not_run:
    case contract::Verdict::implausible:
      break;
  }
  return JunitOutcome::failure;
}

// One <testcase>; counts what it is.
std::string testcase(const contract::LabSpec& spec, const contract::CheckSpec& check,
                     const StudentOutcome& outcome, Counts& counts) {
  ++counts.tests;
  const auto* grade = find_check(outcome, check.id);
  const auto verdict = grade ? grade->verdict : contract::Verdict::not_run;
  const double duration = grade && grade->record ? grade->record->duration_s : 0;
  counts.time += duration;
  std::string reason = grade && grade->record ? grade->record->reason : "";
  if (!outcome.grade) reason = "not graded: " + text::clean(outcome.status, false);
  if (reason.empty()) reason = std::string(contract::verdict_words(verdict));

  std::string out = fmt::format(R"(    <testcase classname="{}" name="{}" time="{:.3f}")",
                                attr(spec.lab), attr(check.id), duration);
  switch (junit_outcome(verdict)) {
    case JunitOutcome::passed:
      return out + "/>\n";
    case JunitOutcome::skipped:
      ++counts.skipped;
      return out + fmt::format(">\n      <skipped message=\"{}: {}\"/>\n    </testcase>\n",
                               contract::verdict_words(verdict), attr(reason));
    case JunitOutcome::failure:
      break;
  }
  ++counts.failures;
  std::string detail = fmt::format("{}: {} of {} points", contract::verdict_words(verdict),
                                   contract::format_points(check_points(outcome, check.id)),
                                   contract::format_points(check.points));
  // The figure against the ceiling, where the record's reason does not say it.
  if (verdict == contract::Verdict::implausible && grade && grade->record &&
      grade->record->reason.empty() && grade->record->timing) {
    detail += '\n';
    detail += reports::implausible_words(*grade->record->timing);
  }
  if (grade && grade->record) {
    for (const auto& note : grade->record->notes) detail += "\n" + note;
    if (!grade->record->reproduce.empty()) {
      detail += "\nReproduce: " + grade->record->reproduce;
    }
  }
  return out + fmt::format(
                   ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    "
                   "</testcase>\n",
                   attr(text::truncate(text::clean(reason, false), 1024)),
                   contract::verdict_words(verdict), body(detail));
}

}  // namespace

std::string junit_xml(const contract::LabSpec& spec, const std::vector<StudentOutcome>& outcomes) {
  Counts all;
  std::string suites;
  for (const auto& outcome : outcomes) {
    Counts counts;
    std::string cases;
    for (const auto& check : spec.checks) cases += testcase(spec, check, outcome, counts);
    std::string out_text =
        fmt::format("status: {}\nscore: {} of {}", text::clean(outcome.status, false),
                    contract::format_points(total_points(spec, outcome)),
                    contract::format_points(spec.total_points()));
    if (outcome.grade) {
      for (const auto& problem : outcome.grade->problems) out_text += "\nproblem: " + problem;
    }
    if (!outcome.message.empty()) out_text += "\n\n" + outcome.message;
    suites += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
        "time=\"{:.3f}\">\n"
        "    <properties>\n"
        "      <property name=\"status\" value=\"{}\"/>\n"
        "      <property name=\"score\" value=\"{}\"/>\n"
        "      <property name=\"max_score\" value=\"{}\"/>\n"
        "      <property name=\"report\" value=\"{}\"/>\n"
        "    </properties>\n"
        "{}"
        "    <system-out>{}</system-out>\n"
        "  </testsuite>\n",
        attr(text::clean(outcome.student, false)), counts.tests, counts.failures, counts.skipped,
        counts.time, attr(text::clean(outcome.status, false)),
        contract::format_points(total_points(spec, outcome)),
        contract::format_points(spec.total_points()), attr(outcome.report_path), cases,
        body(out_text));
    all.tests += counts.tests;
    all.failures += counts.failures;
    all.skipped += counts.skipped;
    all.time += counts.time;
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\" "
      "time=\"{:.3f}\">\n{}</testsuites>\n",
      attr(spec.lab + ": " + spec.title), all.tests, all.failures, all.skipped, all.time, suites);
}

}  // namespace exports
