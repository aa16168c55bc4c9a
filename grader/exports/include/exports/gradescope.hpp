// Gradescope's autograder results (results.json) for one student. Top level: score, output,
// output_format, tests, extra_data. Each test: score, max_score, status ("passed"/"failed"), name,
// number, output, output_format, tags, visibility, extra_data. One test per check of the spec, in
// spec order; a student without a grade gets score 0 and one test that says why. Outputs are
// plain text ("text" format), so Gradescope shows them as written, markup included. The score is
// the sum of the tests' scores.
#pragma once

#include <nlohmann/json.hpp>

#include "exports/outcome.hpp"

namespace exports {

nlohmann::json gradescope_results(const contract::LabSpec& spec, const StudentOutcome& outcome);

}  // namespace exports
