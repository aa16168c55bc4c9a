#include "batch/outcome_file.hpp"

#include <fstream>

#include <nlohmann/json.hpp>

#include "common/atomic_file.hpp"
#include "contract/grade.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Who the student is to the LMS (labgrade shard plan --roster), for the merge's canvas.csv and
// moodle.csv.
json lms_json(const exports::LmsIdentity& who) {
  return {{"name", who.name},
          {"canvas_user_id", who.canvas_user_id},
          {"sis_user_id", who.sis_user_id},
          {"sis_login_id", who.sis_login_id},
          {"section", who.section},
          {"moodle_identifier", who.moodle_identifier},
          {"email", who.email},
          {"moodle_grade_modified", who.moodle_grade_modified}};
}

exports::LmsIdentity lms_identity_of(const json& entry) {
  exports::LmsIdentity who;
  who.name = entry.at("name").get<std::string>();
  who.canvas_user_id = entry.at("canvas_user_id").get<std::string>();
  who.sis_user_id = entry.at("sis_user_id").get<std::string>();
  who.sis_login_id = entry.at("sis_login_id").get<std::string>();
  who.section = entry.at("section").get<std::string>();
  who.moodle_identifier = entry.at("moodle_identifier").get<std::string>();
  who.email = entry.at("email").get<std::string>();
  who.moodle_grade_modified = entry.at("moodle_grade_modified").get<std::string>();
  return who;
}

}  // namespace

void write_outcome_file(const fs::path& dir, const std::string& slug,
                        const exports::StudentOutcome& outcome) {
  json entry{{"student", outcome.student},
             {"slug", slug},
             {"status", outcome.status},
             {"message", outcome.message},
             {"build_output", outcome.build_output},
             {"report_path", outcome.report_path},
             {"graded", outcome.grade.has_value()},
             {"records", json::array()},
             {"problems", json::array()}};
  if (outcome.grade) {
    // The records the grade was made from (those of the spec's checks) and its problems (records
    // that matched no check): grading them again gives the same grade.
    for (const auto& check : outcome.grade->checks) {
      if (!check.record) continue;
      json one;
      contract::to_json(one, *check.record);
      entry["records"].push_back(std::move(one));
    }
    entry["problems"] = outcome.grade->problems;
  }
  if (outcome.lms) entry["lms"] = lms_json(*outcome.lms);
  fs::create_directories(dir);
  common::write_file_atomically(dir / (slug + ".json"),
                                entry.dump(1, ' ', false, json::error_handler_t::replace));
}

std::optional<exports::StudentOutcome> read_outcome_file(const fs::path& dir,
                                                         const std::string& slug,
                                                         const contract::LabSpec& spec) {
  std::ifstream in(dir / (slug + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  try {
    const json entry = json::parse(in);
    exports::StudentOutcome outcome;
    outcome.student = entry.at("student").get<std::string>();
    outcome.status = entry.at("status").get<std::string>();
    outcome.message = entry.at("message").get<std::string>();
    // Absent from the files of a labgrade before the autograder packages.
    outcome.build_output = entry.value("build_output", std::string());
    outcome.report_path = entry.at("report_path").get<std::string>();
    if (entry.contains("lms")) outcome.lms = lms_identity_of(entry.at("lms"));
    if (entry.at("graded").get<bool>()) {
      std::vector<contract::CheckRecord> records;
      for (const auto& one : entry.at("records")) {
        contract::CheckRecord record;
        contract::from_json(one, record);
        records.push_back(std::move(record));
      }
      outcome.grade = contract::grade_lab(spec, std::move(records),
                                          entry.at("problems").get<std::vector<std::string>>());
    }
    return outcome;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace batch
