#include "exports/gradescope.hpp"

#include <cmath>

#include <fmt/format.h>

#include "check_text.hpp"
#include "exports/leaderboard.hpp"
#include "exports/text.hpp"

namespace exports {
namespace {

// A test's status: passed, failed, or none for a check that could not judge the submission (a
// speed check not measured without a GPU, a skipped check): Gradescope's "status" is optional,
// and "failed" would tell the student that their kernel failed a check it never took.
enum class TestStatus { passed, failed, not_judged };

struct TestEntry {
  double score = 0;
  double max_score = 0;
  TestStatus status = TestStatus::failed;
  std::string name;
  std::string number;
  std::string output;
  nlohmann::json tags;
  std::string visibility = "visible";
  nlohmann::json extra_data;
};

nlohmann::json test_json(TestEntry test) {
  auto entry = nlohmann::json{
      {"score", test.score},
      {"max_score", test.max_score},
      {"name", text::clean(test.name, false)},
      {"number", std::move(test.number)},
      {"output", std::move(test.output)},
      {"output_format", "text"},
      {"tags", std::move(test.tags)},
      {"visibility", std::move(test.visibility)},
      {"extra_data", std::move(test.extra_data)},
  };
  if (test.status != TestStatus::not_judged) {
    entry["status"] = test.status == TestStatus::passed ? "passed" : "failed";
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

TestStatus test_status(const contract::CheckSpec& check, contract::Verdict verdict) {
  if (verdict == contract::Verdict::pass ||
      (check.bonus && verdict == contract::Verdict::not_attempted)) {
    return TestStatus::passed;
  }
  if (contract::verdict_class(verdict) == contract::VerdictClass::not_judged) {
    return TestStatus::not_judged;
  }
  return TestStatus::failed;
}

// One check's test: its points, its verdict, who may see it (the spec's "visibility") and how long
// it ran (extra_data: Gradescope's own execution_time is the submission's).
TestEntry check_test(const contract::CheckSpec& check, const StudentOutcome& outcome, int number) {
  const auto* grade = find_check(outcome, check.id);
  const auto verdict = grade ? grade->verdict : contract::Verdict::not_run;
  TestEntry test;
  test.score = check_points(outcome, check.id);
  test.max_score = check.points;
  test.status = test_status(check, verdict);
  // A bonus check is extra credit: named so, tagged "bonus", and the score may exceed the
  // assignment's total. An optional check left alone is not a failure.
  test.tags = nlohmann::json::array({text::clean(check.kind, false)});
  if (check.bonus) test.tags.push_back("bonus");
  if (test.status == TestStatus::not_judged) test.tags.push_back("not judged");
  if (verdict == contract::Verdict::implausible) test.tags.push_back(kImplausibleSpeed);
  test.name = fmt::format("{}{} ({}){}", check.bonus ? "Bonus (extra credit): " : "", check.title,
                          check.id, name_note(check, verdict, test.status));
  test.number = fmt::format("{}", number);
  test.output = detail::check_output(grade);
  test.visibility = check.visibility;
  const double seconds = grade && grade->record ? grade->record->duration_s : 0;
  test.extra_data = {{"check", text::clean(check.id, false)},
                     {"verdict", std::string(contract::verdict_words(verdict))},
                     {"bonus", check.bonus},
                     {"execution_time", std::round(seconds * 1000) / 1000}};
  return test;
}

// The submission's time: its checks' runs, in whole seconds as Gradescope's example writes it.
long execution_seconds(const StudentOutcome& outcome) {
  double seconds = 0;
  if (outcome.grade) {
    for (const auto& check : outcome.grade->checks) {
      if (check.record) seconds += check.record->duration_s;
    }
  }
  return std::lround(seconds);
}

}  // namespace

nlohmann::json gradescope_results(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  const std::string status = text::clean(outcome.status, false);
  nlohmann::json tests = nlohmann::json::array();
  double score = 0;
  if (!outcome.grade) {
    // Shown whatever the checks' visibility: a student must learn that nothing was graded.
    tests.push_back(test_json({.score = 0,
                               .max_score = spec.total_points(),
                               .status = TestStatus::failed,
                               .name = "Submission: " + status,
                               .number = "1",
                               .output = detail::ungraded_output(outcome),
                               .tags = nlohmann::json::array({"submission"}),
                               .extra_data = nlohmann::json{{"status", status}}}));
  } else {
    int number = 0;
    for (const auto& check : spec.checks) {
      auto test = check_test(check, outcome, ++number);
      score += test.score;
      tests.push_back(test_json(std::move(test)));
    }
  }
  auto results = nlohmann::json{
      {"score", score},
      {"execution_time", execution_seconds(outcome)},
      {"output", detail::summary_output(spec, outcome, score)},
      {"output_format", "text"},
      {"tests", std::move(tests)},
      {"extra_data",
       {{"student", text::clean(outcome.student, false)},
        {"lab", text::clean(spec.lab, false)},
        {"status", status},
        {"max_score", spec.total_points()}}},
  };
  // Lab 8's race: Gradescope's leaderboard (only for specs that mark leaderboard checks). The
  // entries carry no name: Gradescope shows each under the pseudonym the student chose.
  if (auto leaderboard = gradescope_leaderboard(spec, outcome); !leaderboard.empty()) {
    results["leaderboard"] = std::move(leaderboard);
  }
  return results;
}

}  // namespace exports
