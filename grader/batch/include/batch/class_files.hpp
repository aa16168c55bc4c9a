// The class's files: gradebook.html, gradebook.csv and junit.xml in the output folder. One function
// for `labgrade batch` and `labgrade shard merge`, so a class graded in shards gets the same files.
#pragma once

#include <filesystem>
#include <vector>

#include "contract/spec.hpp"
#include "exports/outcome.hpp"

namespace batch {

void write_class_files(const std::filesystem::path& out, const contract::LabSpec& spec,
                       const std::vector<exports::StudentOutcome>& students);

}  // namespace batch
