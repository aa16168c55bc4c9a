#include "timings_command.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "contract/record.hpp"

namespace grader {
namespace {

struct TimedRecord {
  std::string dir;
  contract::CheckRecord record;  // has a timing
};

bool has_ceiling(const TimedRecord& timed) { return timed.record.timing->ceiling > 0; }

// "66900 GFLOP/s (135%)": the ceiling and the rate's share of it, so that a figure near or past
// the hardware stands out when thresholds are calibrated; empty when the ceiling is unknown.
std::string ceiling_cell(const contract::Timing& t) {
  if (!(t.ceiling > 0)) return {};
  return fmt::format("{:.0f} {} ({:.0f}%)", t.ceiling, t.rate_unit, t.rate / t.ceiling * 100);
}

std::string row(const TimedRecord& timed, bool ceiling_column) {
  const auto& t = *timed.record.timing;
  std::string text = fmt::format(
      "| {} | {} | {} | {:.3f} | {:.0f} {} | {} | {:.0f} {} | {:.1f}% | {:.1f}% | {:.2f}% |",
      timed.dir, timed.record.check, t.size, t.median_ms, t.rate, t.rate_unit, t.reference_name,
      t.reference_rate, t.rate_unit, t.ratio * 100, t.threshold * 100, t.spread * 100);
  if (ceiling_column) text += fmt::format(" {} |", ceiling_cell(t));
  return text + fmt::format(" {} |\n", contract::to_string(timed.record.verdict));
}

}  // namespace

TimingsTable timings_table(const std::vector<std::string>& results_dirs) {
  TimingsTable table;
  std::vector<TimedRecord> timed;
  for (const auto& dir : results_dirs) {
    for (auto& record : contract::read_records(dir, &table.problems)) {
      if (record.timing) timed.push_back({dir, std::move(record)});
    }
  }
  // Records from before ceilings were measured keep the table they always had.
  const bool ceiling_column = std::any_of(timed.begin(), timed.end(), has_ceiling);
  table.markdown = fmt::format(
      "| results | check | size | median ms | rate | reference | reference rate | ratio | "
      "threshold | spread |{} verdict |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |{} --- |\n",
      ceiling_column ? " ceiling (rate's share) |" : "", ceiling_column ? " --- |" : "");
  for (const auto& one : timed) table.markdown += row(one, ceiling_column);
  table.rows = timed.size();
  return table;
}

int timings_command(const std::vector<std::string>& results_dirs) {
  const auto table = timings_table(results_dirs);
  std::fputs(table.markdown.c_str(), stdout);
  for (const auto& problem : table.problems) {
    std::fprintf(stderr, "warning: %s\n", problem.c_str());
  }
  if (table.rows == 0) std::fprintf(stderr, "labgrade timings: no speed records found\n");
  return 0;
}

}  // namespace grader
