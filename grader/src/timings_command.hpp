// `labgrade timings`: the speed records of a results folder as a Markdown table, for benchmark
// notes (docs/benchmarks/) and for instructors calibrating thresholds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace grader {

// The table of every record with a timing in the folders, in folder then check order. A
// "ceiling (rate's share)" column appears when some record knows its GPU's ceiling.
struct TimingsTable {
  std::string markdown;  // the header, then one line per record
  std::size_t rows = 0;
  std::vector<std::string> problems;  // records that could not be read
};
TimingsTable timings_table(const std::vector<std::string>& results_dirs);

// Prints the table, and the problems on stderr.
int timings_command(const std::vector<std::string>& results_dirs);

}  // namespace grader
