// The class's files: gradebook.html, gradebook.csv and junit.xml in the output folder. One function
// for `labgrade batch` and `labgrade shard merge`, so a class graded in shards gets the same files.
#pragma once

#include <filesystem>
#include <vector>

#include "exports/outcome.hpp"
#include "harness/spec.hpp"

namespace batch {

void write_class_files(const std::filesystem::path& out, const harness::LabSpec& spec,
                       const std::vector<exports::StudentOutcome>& students);

}  // namespace batch
