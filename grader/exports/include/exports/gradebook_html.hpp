// The class gradebook as one self-contained HTML page (inline CSS and SVG, no scripts, no network
// requests; a Content-Security-Policy forbids both): a summary (students, mean and median score),
// how each check went across the class, a histogram of scores, a table of students with a link to
// each report, and the problems (submissions that could not be graded, with their messages).
// A class graded under the CPU emulation gets a note at the top (graded on the CPU, speed not
// measured, the most a submission could earn), and its speed checks read "not measured". A
// student with a speed beyond the GPU's ceiling (verdict implausible) is flagged "implausible
// speed" beside their status, and the check's row counts them apart from the failures.
// Every text from the outcomes and the spec is HTML-escaped; report links are percent-encoded
// relative paths (a path with a URL scheme, such as javascript:, gets no link).
#pragma once

#include <string>
#include <vector>

#include "exports/outcome.hpp"

namespace exports {

// The result depends only on the arguments: the same class renders to the same bytes.
std::string gradebook_html(const contract::LabSpec& spec,
                           const std::vector<StudentOutcome>& outcomes,
                           const std::string& generated_at);

}  // namespace exports
