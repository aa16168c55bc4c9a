#include "student_files.hpp"

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "batch/class_files.hpp"
#include "batch/files.hpp"
#include "batch/not_run.hpp"
#include "batch/outcome_file.hpp"
#include "contract/grade.hpp"
#include "exports/exports.hpp"
#include "lms_step.hpp"
#include "reports/render.hpp"

namespace batch {
namespace {

namespace fs = std::filesystem;

// What the student's report says of the submission and of checks without a record.
reports::ReportContext report_context(const intake::Submission& submission,
                                      const GradedOutcome& outcome, const Kit& kit, bool graded) {
  reports::ReportContext context;
  context.generated_at = contract::utc_timestamp();
  context.student = submission.student;
  context.handout = kit.handout.string();
  context.kernel_source =
      submission.kernel ? fmt::format("{} (submitted by {})",
                                      submission.kernel->filename().string(), submission.student)
                        : std::string("none");
  if (!graded) {
    const std::string status(status_words(outcome.status));
    context.submission_problem = outcome.message.empty() || outcome.message == status
                                     ? status
                                     : status + ": " + outcome.message;
    context.submission_output = outcome.build_output;
  }
  // The student cannot run the grader's checks: a check without a record says why it did not run.
  context.no_record_reason = not_run_reason(outcome);
  return context;
}

}  // namespace

exports::StudentOutcome write_student(const BatchState& batch, const intake::Submission& submission,
                                      GradedOutcome outcome) {
  const fs::path dir = batch.options.out / "students" / submission.slug;
  std::error_code ignored;
  fs::remove_all(dir / "results", ignored);
  for (const auto& record : outcome.records) contract::write_record(dir / "results", record);
  if (!outcome.build_output.empty()) write_whole_file(dir / "build.log", outcome.build_output);

  exports::StudentOutcome student;
  student.student = submission.student;
  student.status = status_words(outcome.status);
  student.message = outcome.message;
  student.build_output = outcome.build_output;
  if (has_records_to_grade(outcome.status)) {
    student.grade = contract::grade_lab(batch.kit.spec, outcome.records);
  }
  const auto context = report_context(submission, outcome, batch.kit, student.grade.has_value());
  const auto grade = student.grade ? *student.grade : contract::grade_lab(batch.kit.spec, {});
  write_whole_file(dir / "report.html", reports::render_lab_report(grade, context));
  write_whole_file(dir / "results.json",
                   exports::gradescope_results(batch.kit.spec, student)
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  student.report_path = "students/" + submission.slug + "/report.html";
  if (batch.lms) student.lms = lms_identity(*batch.lms, submission.slug);
  if (!batch.options.outcomes_dir.empty()) {
    write_outcome_file(batch.options.outcomes_dir, submission.slug, student);
  }
  return student;
}

void write_class(const BatchState& batch, const std::vector<exports::StudentOutcome>& students) {
  // A shard's students are part of a class: `labgrade shard merge` writes its files.
  if (!batch.options.outcomes_dir.empty()) return;
  write_class_files(batch.options.out, batch.kit.spec, students);
  if (batch.lms) write_lms_files(*batch.lms, batch.options.out, batch.kit.spec, students);
}

}  // namespace batch
