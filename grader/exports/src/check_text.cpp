#include "check_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "exports/text.hpp"
#include "reports/ceiling.hpp"

namespace exports::detail {
namespace {

constexpr std::size_t kMaxOutputBytes = 16 * 1024;

// The lab program's name from its path: "/srv/kit/bin/lab6" -> "lab6".
std::string program_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

}  // namespace

std::string platform_text(std::string_view text) {
  return text::truncate(text::clean(text), kMaxOutputBytes);
}

std::string student_command(std::string_view reproduce) {
  std::string out;
  for (std::size_t start = 0; start <= reproduce.size();) {
    const auto space = std::min(reproduce.find(' ', start), reproduce.size());
    const auto word = reproduce.substr(start, space - start);
    // An absolute path is the grader's: the student's program is in their build's labs/.
    out += word.starts_with('/') ? "./labs/" + program_name(word) : std::string(word);
    if (space < reproduce.size()) out += ' ';
    start = space + 1;
  }
  return out;
}

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
  if (!record.reproduce.empty()) out += "\nReproduce: " + student_command(record.reproduce);
  return platform_text(out);
}

std::string ungraded_output(const StudentOutcome& outcome) {
  std::string output =
      fmt::format("Your submission could not be graded: {}.", text::clean(outcome.status, false));
  if (!outcome.message.empty()) output += "\n\n" + outcome.message;
  if (!outcome.build_output.empty()) output += "\n\nThe compiler said:\n" + outcome.build_output;
  return platform_text(output);
}

std::string summary_output(const contract::LabSpec& spec, const StudentOutcome& outcome,
                           double score) {
  std::string output =
      fmt::format("{}: {}\nStatus: {}\nScore: {} of {}", text::clean(spec.lab),
                  text::clean(spec.title), text::clean(outcome.status, false),
                  contract::format_points(score), contract::format_points(spec.total_points()));
  if (spec.bonus_points() > 0 && outcome.grade) {
    output +=
        fmt::format(" (+{} of {} bonus)", contract::format_points(outcome.grade->bonus_points),
                    contract::format_points(spec.bonus_points()));
  }
  if (outcome.grade) {
    for (const auto& problem : outcome.grade->problems) output += "\nProblem: " + problem;
    if (!outcome.message.empty()) output += "\n\n" + outcome.message;
  }
  return platform_text(output);
}

}  // namespace exports::detail
