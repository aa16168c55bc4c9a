// What batch grading knows about one student, and the few questions every export asks of it.
// Nothing here trusts the student: names, statuses and messages are arbitrary bytes, and every
// export escapes them for its own format.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "contract/grade.hpp"
#include "exports/lms_identity.hpp"

namespace exports {

struct StudentOutcome {
  std::string student;  // folder name: untrusted text (spaces, unicode, quotes, markup)
  std::string status;   // "graded", "compile error", "timed out", ... (free text, one line)
  std::string message;  // details, e.g. the compiler's message (untrusted, may be long)
  std::optional<contract::LabGrade> grade;  // absent when nothing could be run
  std::string report_path;  // the student's HTML report, relative to the gradebook (may be empty)
  // Who the student is to the LMS, when the batch had a roster that placed them (canvas.csv and
  // moodle.csv list only these); absent otherwise.
  std::optional<LmsIdentity> lms;
  // What the compiler and linker printed (untrusted, may be long): the platforms whose students
  // see no report (Gradescope, PrairieLearn) show it with a build that failed.
  std::string build_output;
};

// The status that means "the submission ran and was graded"; anything else is a problem to list.
inline constexpr std::string_view kGradedStatus = "graded";

// The statuses that say the grader, not the submission, stopped short: no grade, but no zero
// either (the LMS exports leave the score empty). batch::status_words words them with these.
inline constexpr std::string_view kInterruptedStatus = "interrupted";
inline constexpr std::string_view kGraderErrorStatus = "grader error";
inline constexpr std::string_view kNotGradedStatus = "not graded";

// True when the outcome has no grade because the grader did not finish with it (the statuses
// above), not because of the submission (a compile error earns 0).
bool grader_unfinished(const StudentOutcome& outcome);

// The grade of one check of the spec, found by id (not by position, so a grade computed against a
// spec with other checks cannot shift points between columns). Null when the student has no grade
// or the grade has no such check.
const contract::CheckGrade* find_check(const StudentOutcome& outcome, std::string_view check_id);

// Points earned for a check; 0 when the check is absent.
double check_points(const StudentOutcome& outcome, std::string_view check_id);

// The check's verdict; not_run when the check is absent.
contract::Verdict check_verdict(const StudentOutcome& outcome, std::string_view check_id);

// The student's total: the sum of the points of the spec's checks (0 without a grade).
double total_points(const contract::LabSpec& spec, const StudentOutcome& outcome);

// True when the outcome needs an instructor's look: not graded, or graded with problems.
bool has_problems(const StudentOutcome& outcome);

// True when the class was graded under the CPU emulation: a student's records say they ran there
// (contract::LabGrade::emulated). Speed was then not measured, and the exports say so.
bool graded_under_emulation(std::span<const StudentOutcome> outcomes);

// What the exports show for a check that was not measured, where points would stand: a speed
// check under the CPU emulation earns 0, but it did not fail.
inline constexpr std::string_view kNotMeasured = "not measured";

// What the exports show for a check whose speed was beyond what the GPU can do (verdict
// implausible): it earned 0 and failed, and the kernel needs an instructor's look, so the flag
// stands where the points would and beside the student's name.
inline constexpr std::string_view kImplausibleSpeed = "implausible speed";

// How many of the spec's checks the student has with the verdict implausible.
std::size_t implausible_checks(const contract::LabSpec& spec, const StudentOutcome& outcome);

}  // namespace exports
