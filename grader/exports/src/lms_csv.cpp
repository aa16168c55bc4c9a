// canvas.csv and moodle.csv: one row per student the roster placed, every cell through the one
// CSV writer (text::csv_field: quoted where needed, formula characters guarded).
#include <fmt/format.h>

#include "exports/lms_gradebooks.hpp"
#include "exports/text.hpp"
#include "reports/html.hpp"

namespace exports {
namespace {

void add_lms_row(std::string& out, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out += ',';
    out += text::csv_field(cells[i]);
  }
  out += "\r\n";  // RFC 4180, as gradebook.csv
}

std::string score_cell(const std::optional<double>& score) {
  return score ? contract::format_points(*score) : std::string();
}

std::string points_cell(const std::optional<double>& points) {
  return points ? contract::format_points(*points) : std::string();
}

}  // namespace

std::string canvas_csv(const contract::LabSpec& spec, std::span<const StudentOutcome> outcomes,
                       const CanvasTarget& target) {
  std::string out;
  add_lms_row(out, {"Student", "ID", "SIS User ID", "SIS Login ID", "Section", target.column});
  for (const StudentOutcome& outcome : outcomes) {
    if (!outcome.lms || outcome.lms->canvas_user_id.empty()) continue;
    const LmsIdentity& who = *outcome.lms;
    add_lms_row(
        out, {text::clean(who.name, false), who.canvas_user_id, who.sis_user_id, who.sis_login_id,
              who.section, score_cell(lms_score(spec, outcome, target.points_possible, false))});
  }
  return out;
}

std::string moodle_csv(const contract::LabSpec& spec, std::span<const StudentOutcome> outcomes,
                       const MoodleTarget& target) {
  std::string out;
  add_lms_row(out, {"Identifier", "Full name", "Email address", "Grade", "Maximum Grade",
                    "Last modified (grade)", "Feedback comments"});
  for (const StudentOutcome& outcome : outcomes) {
    if (!outcome.lms || outcome.lms->moodle_identifier.empty()) continue;
    const LmsIdentity& who = *outcome.lms;
    // Moodle keeps feedback comments as HTML: the plain sentences are escaped to show as written.
    const std::string feedback =
        reports::escape(text::clean(lms_feedback(spec, outcome), false), reports::Markup::html);
    add_lms_row(out, {who.moodle_identifier, text::clean(who.name, false), who.email,
                      score_cell(lms_score(spec, outcome, target.maximum_grade, true)),
                      points_cell(target.maximum_grade ? target.maximum_grade
                                                       : std::optional(spec.total_points())),
                      who.moodle_grade_modified, feedback});
  }
  return out;
}

}  // namespace exports
