// The words the autograder platforms show a student (Gradescope's results.json, PrairieLearn's):
// under each check, about the whole submission, and for one that could not be graded. One source
// for both, so the two platforms tell a student the same thing. Plain text, cleaned of control
// bytes, cut to a size the platforms show; never a path of the grader's machine.
#pragma once

#include <string>
#include <string_view>

#include "exports/outcome.hpp"

namespace exports::detail {

// At most 16 KiB of cleaned text: compiler output can be megabytes, and the full text stays in
// the student's report.
std::string platform_text(std::string_view text);

// A record's replay command as the student runs it in their own build folder: the lab program's
// path on the grader's machine becomes ./labs/<program> ("LAB_SEED=7 ./labs/lab6
// --gtest_filter=TiledMatmul.Integers").
std::string student_command(std::string_view reproduce);

// What a student reads under a check: the verdict, the reason, the notes, the replay command.
std::string check_output(const contract::CheckGrade* grade);

// Why a submission has no grade: its status, the grader's message and what the compiler said.
std::string ungraded_output(const StudentOutcome& outcome);

// About the whole submission: the lab, the status, the score out of the total (and the bonus),
// the grade's problems and the grader's message.
std::string summary_output(const contract::LabSpec& spec, const StudentOutcome& outcome,
                           double score);

}  // namespace exports::detail
