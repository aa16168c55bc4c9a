// `labgrade timings`: the speed records of a results folder as a Markdown table, for benchmark
// notes (docs/benchmarks/) and for instructors calibrating thresholds.
#pragma once

#include <string>
#include <vector>

namespace grader {

int timings_command(const std::vector<std::string>& results_dirs);

}  // namespace grader
