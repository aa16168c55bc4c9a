#include "timings_command.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "contract/record.hpp"

namespace grader {

int timings_command(const std::vector<std::string>& results_dirs) {
  std::printf(
      "| results | check | size | median ms | rate | reference | reference rate | ratio | "
      "threshold | spread | verdict |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  int rows = 0;
  for (const auto& dir : results_dirs) {
    std::vector<std::string> problems;
    for (const auto& record : contract::read_records(dir, &problems)) {
      if (!record.timing) continue;
      const auto& t = *record.timing;
      std::printf(
          "%s\n",
          fmt::format("| {} | {} | {} | {:.3f} | {:.0f} {} | {} | {:.0f} {} | {:.1f}% | "
                      "{:.1f}% | {:.2f}% | {} |",
                      dir, record.check, t.size, t.median_ms, t.rate, t.rate_unit, t.reference_name,
                      t.reference_rate, t.rate_unit, t.ratio * 100, t.threshold * 100,
                      t.spread * 100, contract::to_string(record.verdict))
              .c_str());
      ++rows;
    }
    for (const auto& problem : problems) std::fprintf(stderr, "warning: %s\n", problem.c_str());
  }
  if (rows == 0) std::fprintf(stderr, "labgrade timings: no speed records found\n");
  return 0;
}

}  // namespace grader
