// One student's outcome as a file, for grading in shards (batch/shard.hpp): each shard writes the
// outcomes of its students, and `labgrade shard merge` turns them into the class gradebook. The
// file keeps what the gradebook and exports need: the status and message, the report's path and
// the check records (the grade is computed again from them and the spec, as a batch does).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "contract/spec.hpp"
#include "exports/outcome.hpp"

namespace batch {

// Writes <dir>/<slug>.json (atomically: a killed shard never leaves half a file).
void write_outcome_file(const std::filesystem::path& dir, const std::string& slug,
                        const exports::StudentOutcome& outcome);

// Reads <dir>/<slug>.json and grades its records against `spec` (which must outlive the result);
// nullopt when the file is missing or unreadable.
std::optional<exports::StudentOutcome> read_outcome_file(const std::filesystem::path& dir,
                                                         const std::string& slug,
                                                         const contract::LabSpec& spec);

}  // namespace batch
