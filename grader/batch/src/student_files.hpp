// The student files: what a batch writes for each student (results records, build log, HTML
// report, Gradescope's results.json, and a shard's outcome file) and, for a whole class, the
// gradebook and exports (batch/class_files.hpp).
#pragma once

#include <vector>

#include "batch/cache.hpp"
#include "batch_state.hpp"
#include "exports/outcome.hpp"
#include "intake/intake.hpp"

namespace batch {

// Writes out/students/<slug>/ and returns the student's line of the gradebook.
exports::StudentOutcome write_student(const BatchState& batch, const intake::Submission& submission,
                                      GradedOutcome outcome);

// The class files, unless the batch is a shard (`labgrade shard merge` writes them then).
void write_class(const BatchState& batch, const std::vector<exports::StudentOutcome>& students);

}  // namespace batch
