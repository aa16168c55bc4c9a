#include "exports/prairielearn.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "check_text.hpp"
#include "data_uri.hpp"
#include "exports/text.hpp"
#include "reports/error_map_image.hpp"

namespace exports {
namespace {

bool hidden(const contract::CheckSpec& check) { return check.visibility == "hidden"; }

// One line for the test's "message": the verdict in words, with a bonus or hidden note.
std::string test_message(const contract::CheckSpec& check, contract::Verdict verdict) {
  if (hidden(check)) return "hidden until the course shows it";
  std::string words(contract::verdict_words(verdict));
  if (check.bonus) words += " (bonus, extra credit)";
  return words;
}

nlohmann::json check_test(const contract::CheckSpec& check, const StudentOutcome& outcome) {
  const auto* grade = find_check(outcome, check.id);
  const auto verdict = grade ? grade->verdict : contract::Verdict::not_run;
  return {{"name", text::clean(fmt::format("{} ({})", check.title, check.id), false)},
          {"description", text::clean(check.kind, false)},
          {"points", check_points(outcome, check.id)},
          {"max_points", check.points},
          {"message", test_message(check, verdict)},
          {"output", hidden(check) ? std::string() : detail::check_output(grade)}};
}

// The error map of a check's first failed case that has one: empty when none can be drawn.
std::string first_error_map(const contract::CheckRecord& record, std::string& case_name) {
  for (const auto& one : record.cases) {
    if (one.verdict == contract::Verdict::pass || !one.error_map) continue;
    std::string svg = reports::error_map_image(*one.error_map);
    if (svg.empty()) continue;
    case_name = one.name;
    return svg;
  }
  return {};
}

// One error map per check a student may see (its first failed case's: the others of a check
// mostly repeat it), first check first, within the budget.
nlohmann::json error_map_images(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  nlohmann::json images = nlohmann::json::array();
  std::size_t bytes = 0;
  for (const auto& check : spec.checks) {
    const auto* grade = find_check(outcome, check.id);
    if (hidden(check) || !grade || !grade->record) continue;
    std::string case_name;
    const std::string svg = first_error_map(*grade->record, case_name);
    if (svg.empty()) continue;
    if (images.size() >= kMaxImages) break;
    auto url = detail::data_uri("image/svg+xml", svg);
    if (bytes + url.size() > kMaxImageBytes) continue;  // a smaller map of a later check may fit
    bytes += url.size();
    images.push_back(
        {{"label", text::clean(fmt::format("{}: {}: wrong elements", check.id, case_name), false)},
         {"url", std::move(url)}});
  }
  return images;
}

nlohmann::json not_gradable(const StudentOutcome& outcome) {
  const std::string status = text::clean(outcome.status, false);
  const std::string why =
      outcome.message.empty() ? status : status + ": " + text::clean(outcome.message, false);
  return {{"gradable", false},
          {"message", detail::platform_text(why)},
          {"format_errors", nlohmann::json::array({detail::platform_text(why)})},
          {"output", detail::ungraded_output(outcome)}};
}

}  // namespace

nlohmann::json prairielearn_results(const contract::LabSpec& spec, const StudentOutcome& outcome) {
  if (!outcome.grade) return not_gradable(outcome);
  nlohmann::json tests = nlohmann::json::array();
  double points = 0;
  for (const auto& check : spec.checks) {
    points += check_points(outcome, check.id);
    tests.push_back(check_test(check, outcome));
  }
  const double total = spec.total_points();
  const double score = total > 0 ? std::clamp(points / total, 0.0, 1.0) : 0.0;
  auto results = nlohmann::json{
      {"gradable", true},
      {"score", score},
      {"message", fmt::format("{} of {} points", contract::format_points(points),
                              contract::format_points(total))},
      {"output", detail::summary_output(spec, outcome, points)},
      {"tests", std::move(tests)},
  };
  if (auto images = error_map_images(spec, outcome); !images.empty()) {
    results["images"] = std::move(images);
  }
  return results;
}

}  // namespace exports
