// The roster in a batch (labgrade batch --roster FILE): read and checked before anything runs,
// matched to the submissions intake found (one per student, the others listed), and at the end
// turned into canvas.csv and moodle.csv beside the gradebook. OUT/roster-report.txt and the
// batch's output say which submission went to whom and which matched no one.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/batch.hpp"
#include "contract/spec.hpp"
#include "exports/lms_gradebooks.hpp"
#include "intake/intake.hpp"
#include "lms/class_match.hpp"
#include "lms/roster.hpp"

namespace batch {

struct LmsState {
  lms::Roster roster;
  lms::ClassMatch match;                        // its to_grade handed to the batch
  std::optional<exports::CanvasTarget> canvas;  // set: canvas.csv is written
  std::optional<exports::MoodleTarget> moodle;  // set: moodle.csv is written
  std::string assignment_option;                // --lms-assignment
  std::vector<std::string> export_notes;        // what the report says of the two files
};

// The roster of --roster, with the Canvas assignment column chosen; nullptr without --roster.
// Throws lms::RosterError (one line naming the file) when the roster cannot be used.
std::shared_ptr<LmsState> load_lms(const BatchOptions& options, const contract::LabSpec& spec);

// Replaces `submissions` with those to grade (lms::ClassMatch::to_grade); with `say`, prints the
// matching's problems and writes OUT/roster-report.txt (a shard's run does not: its plan did).
void match_roster(LmsState& state, std::vector<intake::Submission>& submissions,
                  const std::vector<std::string>& optional_sources, const contract::LabSpec& spec,
                  const std::filesystem::path& out, bool say = true);

// Who the graded submission `slug` is to the LMS; nullopt when it matched no one.
std::optional<exports::LmsIdentity> lms_identity(const LmsState& state, const std::string& slug);

// canvas.csv and moodle.csv in `out`, as the roster allows.
void write_lms_files(const LmsState& state, const std::filesystem::path& out,
                     const contract::LabSpec& spec,
                     const std::vector<exports::StudentOutcome>& students);

// A shard plan's roster (labgrade shard plan --roster, batch/shard.hpp): the file and the
// --lms-assignment, with which each shard's run matches its class as the plan did, and the
// exports the whole class's matching chose, which the merge writes. null without a roster.
nlohmann::json lms_plan_json(const LmsState& state, const BatchOptions& options);
void apply_lms_plan(const nlohmann::json& plan, BatchOptions& options);
// The merge's canvas.csv and moodle.csv, from the plan and the students' outcome files.
void write_lms_files(const nlohmann::json& plan, const std::filesystem::path& out,
                     const contract::LabSpec& spec,
                     const std::vector<exports::StudentOutcome>& students);

}  // namespace batch
