// PrairieLearn's external-grading results (/grade/results/results.json) for one student, in the
// format of https://prairielearn.readthedocs.io/en/latest/externalGrading/ ("Grading results").
//
// A submission without a grade (it does not build, has no kernel.cu, or the grader did not finish
// with it) is "gradable": false: PrairieLearn then marks it invalid, takes no attempt and awards
// nothing; "message" and "format_errors" say why in one line and "output" holds what the compiler
// said. A graded one has "score" in [0, 1] (points over the lab's total, bonus included, at most
// 1), "message" (the score in points), "output" (the summary the Gradescope export shows), one
// test per check of the spec (name, description, points, max_points, message, output) and
// "images": an error map (SVG as a data: URL) per check with a failed case that has one (its
// first), at most kMaxImages, within kMaxImageBytes together, so the file stays under
// PrairieLearn's 1 MB. A check whose spec says
// "visibility": "hidden" keeps its points but shows no message, output or image (PrairieLearn has
// no later visibility: "after_due_date" and "after_published" checks are shown).
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "exports/outcome.hpp"

namespace exports {

inline constexpr std::size_t kMaxImages = 4;
inline constexpr std::size_t kMaxImageBytes = 256 * 1024;

nlohmann::json prairielearn_results(const contract::LabSpec& spec, const StudentOutcome& outcome);

}  // namespace exports
