#include "exports/gradescope.hpp"

#include <fmt/format.h>

#include "exports/leaderboard.hpp"
#include "exports/text.hpp"
#include "reports/ceiling.hpp"

namespace exports {
namespace {

// Compiler output can be megabytes; Gradescope shows the start, and the full text stays in the
// student's report.
constexpr std::size_t kMaxOutputBytes = 16 * 1024;

std::string output_text(std::string_view text) {
  return text::truncate(text::clean(text), kMaxOutputBytes);
}

// What a student reads under a check: the verdict, the reason, the notes.
std::string check_output(const contract::CheckGrade* grade) {
  if (!grade || !grade->record) return "This check did not run.";
  const auto& record = *grade->record;
  const std::string words(contract::verdict_words(grade->verdict));
  std::string out;
  if (record.reason.empty()) {
    out = words;
    // The figure against the ceiling, where the record does not say it.
    if (grade->verdict == contract::Verdict::implausible && record.timing) {
      out = reports::implausible_words(*record.timing) +
            ". No kernel is faster than the hardware: this figure earns no points.";
    }
  } else {
    // A reason may open with its verdict's words already ("implausible: measured ...").
    out = record.reason.starts_with(words + ":") ? record.reason : words + ": " + record.reason;
  }
  for (const auto& note : record.notes) out += "\n" + note;
  if (!record.reproduce.empty()) out += "\nReproduce: " + record.reproduce;
  return output_text(out);
}

// A test's status: passed, failed, or none for a check that could not judge the submission (a
// speed check not measured without a GPU, a skipped check): Gradescope's "status" is optional,
// and "failed" would tell the student that their kernel failed a check it never took.
enum class TestStatus { passed, failed, not_judged };

nlohmann::json test_entry(double score, double max_score, TestStatus status, std::string name,
                          std::string number, std::string output, nlohmann::json tags,
                          nlohmann::json extra_data) {
  auto entry = nlohmann::json{
      {"score", score},
      {"max_score", max_score},
      {"name", text::clean(name, false)},
      {"number", std::move(number)},
      {"output", std::move(output)},
      {"output_format", "text"},
      {"tags", std::move(tags)},
      {"visibility", "visible"},
      {"extra_data", std::move(extra_data)},
  };
  if (status != TestStatus::not_judged) {
    entry["status"] = status == TestStatus::passed ? "passed" : "failed";
  }
  return entry;
}

// What a test's name adds after the check's: " (not measured)", " (implausible speed)". The list
// of tests is what a student reads first.
std::string name_note(const contract::CheckSpec& check, contract::Verdict verdict,
                      TestStatus status) {
  if (verdict == contract::Verdict::implausible) return fmt::format(" ({})", kImplausibleSpeed);
  if (status == TestStatus::not_judged && !check.bonus) {
    return fmt::format(" ({})", contract::verdict_words(verdict));
  }
  return {};
}

}  // namespace

nlohmann::json gradescope_results(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  const std::string status = text::clean(outcome.status, false);
  nlohmann::json tests = nlohmann::json::array();
  double score = 0;
  if (!outcome.grade) {
    std::string output = fmt::format("Your submission could not be graded: {}.", status);
    if (!outcome.message.empty()) output += "\n\n" + outcome.message;
    tests.push_back(test_entry(0, spec.total_points(), TestStatus::failed, "Submission: " + status,
                               "1", output_text(output), nlohmann::json::array({"submission"}),
                               nlohmann::json{{"status", status}}));
  } else {
    int number = 0;
    for (const auto& check : spec.checks) {
      const auto* grade = find_check(outcome, check.id);
      const double points = check_points(outcome, check.id);
      const auto verdict = grade ? grade->verdict : contract::Verdict::not_run;
      score += points;
      // A bonus check is extra credit: named so, tagged "bonus", and the score may exceed the
      // assignment's total. An optional check left alone is not a failure.
      auto tags = nlohmann::json::array({text::clean(check.kind, false)});
      if (check.bonus) tags.push_back("bonus");
      auto test_status = TestStatus::failed;
      if (verdict == contract::Verdict::pass ||
          (check.bonus && verdict == contract::Verdict::not_attempted)) {
        test_status = TestStatus::passed;
      } else if (contract::verdict_class(verdict) == contract::VerdictClass::not_judged) {
        test_status = TestStatus::not_judged;
        tags.push_back("not judged");
      } else if (verdict == contract::Verdict::implausible) {
        tags.push_back(kImplausibleSpeed);
      }
      const std::string note = name_note(check, verdict, test_status);
      tests.push_back(
          test_entry(points, check.points, test_status,
                     fmt::format("{}{} ({}){}", check.bonus ? "Bonus (extra credit): " : "",
                                 check.title, check.id, note),
                     fmt::format("{}", ++number), check_output(grade), std::move(tags),
                     nlohmann::json{{"check", text::clean(check.id, false)},
                                    {"verdict", std::string(contract::verdict_words(verdict))},
                                    {"bonus", check.bonus}}));
    }
  }

  std::string output = fmt::format("{}: {}\nStatus: {}\nScore: {} of {}", text::clean(spec.lab),
                                   text::clean(spec.title), status, contract::format_points(score),
                                   contract::format_points(spec.total_points()));
  if (spec.bonus_points() > 0 && outcome.grade) {
    output +=
        fmt::format(" (+{} of {} bonus)", contract::format_points(outcome.grade->bonus_points),
                    contract::format_points(spec.bonus_points()));
  }
  if (outcome.grade) {
    for (const auto& problem : outcome.grade->problems) output += "\nProblem: " + problem;
    if (!outcome.message.empty()) output += "\n\n" + outcome.message;
  }
  auto results = nlohmann::json{
      {"score", score},
      {"output", output_text(output)},
      {"output_format", "text"},
      {"tests", std::move(tests)},
      {"extra_data",
       {{"student", text::clean(outcome.student, false)},
        {"lab", text::clean(spec.lab, false)},
        {"status", status},
        {"max_score", spec.total_points()}}},
  };
  // Lab 8's race: Gradescope's leaderboard (only for specs that mark leaderboard checks).
  if (auto leaderboard = gradescope_leaderboard(spec, outcome); !leaderboard.empty()) {
    results["leaderboard"] = std::move(leaderboard);
  }
  return results;
}

}  // namespace exports
