// Gradescope's autograder results (results.json) for one student, in the format of
// https://gradescope-autograders.readthedocs.io/en/latest/specs/. Top level: score,
// execution_time (whole seconds, the checks' runs), output, output_format, tests, extra_data, and
// leaderboard for a spec with leaderboard checks (values only: Gradescope names each entry by the
// pseudonym the student chose). Each test: score, max_score, status ("passed"/"failed"), name,
// number, output, output_format, tags, visibility (the check's, from the spec), extra_data (the
// check, its verdict, its execution_time in seconds). One test per check of the spec, in spec
// order; a student without a grade gets score 0 and one visible test that says why, with what the
// compiler said. Outputs are plain text ("text" format), so Gradescope shows them as written,
// markup included, and name no path of the grader's machine. The score is the sum of the tests'.
#pragma once

#include <nlohmann/json.hpp>

#include "exports/outcome.hpp"

namespace exports {

nlohmann::json gradescope_results(const contract::LabSpec& spec, const StudentOutcome& outcome);

}  // namespace exports
