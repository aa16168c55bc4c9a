// Renders a lab's grade as one self-contained HTML page (inline CSS and SVG, no scripts, no network
// access) that a student can open offline and an instructor can archive.
#pragma once

#include <string>

#include "contract/grade.hpp"

namespace reports {

// What the report says about where it came from; none of it is needed to grade.
struct ReportContext {
  std::string generated_at;   // ISO 8601 time, shown in the footer
  std::string kernel_source;  // e.g. "labs/lab1-matrix-copy/kernel.cu (starter)"
  std::string handout;        // path of the handout README, shown as text (never as a link)
  std::string student;        // may be empty; untrusted text (batch grading takes it from a roster)
  // Batch grading: why the submission could not be run ("compile error", "no kernel file", ...)
  // and what the tool said (the compiler's messages). Both untrusted; shown escaped, verbatim.
  std::string submission_problem;
  std::string submission_output;
  // What a check without a record says. Empty: the student's own run (ctest), which names the
  // command that runs the lab's checks; batch grading gives its own reason instead, since the
  // student cannot run the grader's checks ("did not run: compile error").
  std::string no_record_reason;
};

// The whole page. The result depends only on the arguments (no clock, no environment), so the same
// grade renders to the same bytes. Every text from the grade and the context is HTML-escaped.
std::string render_lab_report(const contract::LabGrade& grade, const ReportContext& context);

}  // namespace reports
