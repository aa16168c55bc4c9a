// The lab 8 race: a leaderboard of each student's share of the reference (cuBLAS FP32) at the
// shapes the spec marks with "leaderboard": "<column name>". Two exports: the entries of
// Gradescope's results.json ("leaderboard": [{name, value, order}]) and a class page ranking the
// students. A share counts only when it was measured and judged (pass or fail, with a timing): an
// inconclusive, failed-to-run or missing check has no share and ranks last. A figure beyond what
// the GPU can do (verdict implausible, or a rate above the record's ceiling whatever its verdict)
// is never ranked: the class page lists it unranked, flagged "implausible speed".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exports/outcome.hpp"

namespace exports {

struct LeaderboardColumn {
  const contract::CheckSpec* check = nullptr;
  std::string name;  // the spec's "leaderboard" value, e.g. "% of cuBLAS FP32 at 4096^3"
};

// The spec's leaderboard checks, in spec order; the first is the one the class page ranks by.
std::vector<LeaderboardColumn> leaderboard_columns(const contract::LabSpec& spec);

// The student's measured share of the reference for one check (0.85 for 85%), if any.
std::optional<double> leaderboard_share(const StudentOutcome& outcome, std::string_view check_id);

// True when the student's figure for the check is beyond the GPU's ceiling: the verdict is
// implausible, or the record's rate exceeds its ceiling. Such a figure has no share.
bool leaderboard_implausible(const StudentOutcome& outcome, std::string_view check_id);

// Gradescope's leaderboard entries: one per column, named as the column, the value the share as
// a percentage with one decimal (0 when not measured), higher is better ("desc"). Empty when the
// spec has no leaderboard checks.
nlohmann::json gradescope_leaderboard(const contract::LabSpec& spec, const StudentOutcome& outcome);

struct LeaderboardRow {
  const StudentOutcome* outcome = nullptr;
  int rank = 0;                               // 1 = best; tied shares share a rank; 0: unranked
  std::vector<std::optional<double>> shares;  // one per column
  std::vector<bool> implausible;              // one per column: flagged, never ranked
};

// Every student, best first by the first column's share (ties: the mean of the other columns, then
// the name); students without a share there come last, unranked, in name order.
std::vector<LeaderboardRow> rank_class(const contract::LabSpec& spec,
                                       const std::vector<StudentOutcome>& outcomes);

// The class page: one self-contained HTML page (inline CSS, no scripts, no requests), every text
// HTML-escaped. Same arguments, same bytes.
std::string leaderboard_html(const contract::LabSpec& spec,
                             const std::vector<StudentOutcome>& outcomes,
                             const std::string& generated_at);

}  // namespace exports
