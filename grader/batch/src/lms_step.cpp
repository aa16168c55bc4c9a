#include "lms_step.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "batch/files.hpp"
#include "exports/text.hpp"
#include "lms_assignment.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

// Whether a student the roster placed was graded from a download of `lms`.
bool any_download_of(const lms::ClassMatch& match, lms::Lms lms) {
  for (const auto& [slug, download] : match.download_of_slug) {
    if (match.student_of_slug.contains(slug) && download.lms == lms) return true;
  }
  return false;
}

std::string scaling_words(const contract::LabSpec& spec, const std::optional<double>& lms_points) {
  if (!lms_points) {
    return fmt::format("scores in the lab's points (of {})",
                       contract::format_points(spec.total_points()));
  }
  return fmt::format("scores scaled from the lab's {} points to the LMS's {}",
                     contract::format_points(spec.total_points()),
                     contract::format_points(*lms_points));
}

// Which of the two files the roster and the downloads allow, and the report's words on each.
void plan_exports(LmsState& state, const contract::LabSpec& spec) {
  const lms::RosterKind kind = state.roster.kind;
  if (kind != lms::RosterKind::canvas && any_download_of(state.match, lms::Lms::canvas)) {
    const std::string column = state.assignment_option.empty() ? spec.lab : state.assignment_option;
    state.canvas = exports::CanvasTarget{column, std::nullopt};
  }
  if (state.canvas) {
    state.export_notes.push_back(fmt::format(
        "canvas.csv: Canvas's Grades > Import, assignment column '{}', {}{}",
        exports::text::clean(state.canvas->column, false),
        scaling_words(spec, state.canvas->points_possible),
        has_assignment_id(state.canvas->column)
            ? ""
            : " (Canvas finds the assignment by its title or creates it: give the column as "
              "'Title (assignment id)' with --lms-assignment)"));
  }
  if (state.moodle) {
    state.export_notes.push_back(fmt::format(
        "moodle.csv: the assignment's Upload grading worksheet, with Feedback comments, {} (a "
        "grade above the maximum is entered as the maximum)",
        scaling_words(spec, state.moodle->maximum_grade)));
  } else if (kind == lms::RosterKind::moodle_grades ||
             any_download_of(state.match, lms::Lms::moodle)) {
    state.export_notes.push_back(
        "moodle.csv: not written: it is keyed by the Identifier column of the assignment's "
        "grading worksheet (View all submissions > Download grading worksheet): give that as "
        "--roster");
  }
}

}  // namespace

std::shared_ptr<LmsState> load_lms(const BatchOptions& options, const contract::LabSpec& spec) {
  if (options.roster.empty()) return nullptr;
  auto state = std::make_shared<LmsState>();
  state->roster = lms::read_roster(options.roster);
  state->assignment_option = options.lms_assignment;
  if (state->roster.kind == lms::RosterKind::canvas) {
    state->canvas = canvas_column(state->roster, options.lms_assignment, spec.lab);
  }
  if (state->roster.kind == lms::RosterKind::moodle_worksheet) {
    state->moodle = exports::MoodleTarget{state->roster.moodle_maximum_grade};
  }
  return state;
}

void match_roster(LmsState& state, std::vector<intake::Submission>& submissions,
                  const std::vector<std::string>& optional_sources, const contract::LabSpec& spec,
                  const fs::path& out, bool say) {
  state.match = lms::match_class(std::move(submissions), state.roster, optional_sources);
  submissions = std::move(state.match.to_grade);
  state.match.to_grade.clear();
  plan_exports(state, spec);
  if (!say) return;
  std::string notes;
  for (const std::string& note : state.export_notes) notes += note + "\n";
  const std::string problems = lms::match_report(state.roster, state.match, false);
  std::fprintf(stderr, "%s%s", problems.c_str(), notes.c_str());
  try {
    write_whole_file(out / "roster-report.txt",
                     lms::match_report(state.roster, state.match, true) + "\nExports:\n" + notes);
    std::fprintf(stderr, "roster report: %s\n", (out / "roster-report.txt").c_str());
  } catch (const std::exception& error) {
    // The report says again what the output just said: grading goes on without it.
    std::fprintf(stderr, "labgrade batch: roster-report.txt not written: %s\n", error.what());
  }
}

std::optional<exports::LmsIdentity> lms_identity(const LmsState& state, const std::string& slug) {
  const auto placed = state.match.student_of_slug.find(slug);
  if (placed == state.match.student_of_slug.end()) return std::nullopt;
  const lms::RosterStudent& student = state.roster.students[placed->second];
  exports::LmsIdentity who;
  who.name = student.name;
  who.sis_user_id = student.sis_user_id;
  who.sis_login_id = student.sis_login_id;
  who.section = student.section;
  who.email = student.email;
  if (state.roster.kind == lms::RosterKind::canvas) who.canvas_user_id = student.id;
  const auto download = state.match.download_of_slug.find(slug);
  if (who.canvas_user_id.empty() && download != state.match.download_of_slug.end() &&
      download->second.lms == lms::Lms::canvas) {
    who.canvas_user_id = download->second.id;
  }
  if (state.roster.kind == lms::RosterKind::moodle_worksheet) {
    who.moodle_identifier = student.identifier;
    who.moodle_grade_modified = student.grade_modified;
  }
  return who;
}

void write_lms_files(const LmsState& state, const fs::path& out, const contract::LabSpec& spec,
                     const std::vector<exports::StudentOutcome>& students) {
  if (state.canvas)
    write_whole_file(out / "canvas.csv", exports::canvas_csv(spec, students, *state.canvas));
  if (state.moodle)
    write_whole_file(out / "moodle.csv", exports::moodle_csv(spec, students, *state.moodle));
}

nlohmann::json lms_plan_json(const LmsState& state, const BatchOptions& options) {
  nlohmann::json plan{{"roster", fs::absolute(options.roster).string()},
                      {"assignment", options.lms_assignment}};
  if (state.canvas) {
    plan["canvas"] = {{"column", state.canvas->column}};
    if (state.canvas->points_possible) plan["canvas"]["points"] = *state.canvas->points_possible;
  }
  if (state.moodle) {
    plan["moodle"] = nlohmann::json::object();
    if (state.moodle->maximum_grade) plan["moodle"]["maximum"] = *state.moodle->maximum_grade;
  }
  return plan;
}

void apply_lms_plan(const nlohmann::json& plan, BatchOptions& options) {
  if (plan.is_null()) return;
  options.roster = plan.at("roster").get<std::string>();
  options.lms_assignment = plan.at("assignment").get<std::string>();
}

void write_lms_files(const nlohmann::json& plan, const fs::path& out, const contract::LabSpec& spec,
                     const std::vector<exports::StudentOutcome>& students) {
  if (plan.is_null()) return;
  const auto number = [](const nlohmann::json& object, const char* key) {
    return object.contains(key) ? std::optional<double>(object.at(key).get<double>())
                                : std::nullopt;
  };
  if (plan.contains("canvas")) {
    const exports::CanvasTarget target{plan["canvas"].at("column").get<std::string>(),
                                       number(plan["canvas"], "points")};
    write_whole_file(out / "canvas.csv", exports::canvas_csv(spec, students, target));
  }
  if (plan.contains("moodle")) {
    const exports::MoodleTarget target{number(plan["moodle"], "maximum")};
    write_whole_file(out / "moodle.csv", exports::moodle_csv(spec, students, target));
  }
}

}  // namespace batch
