// The rules behind diagnose_case, in the order they are tried: what the guard zones and the launch
// say, then experiments (a re-run changes the answer: a race or stale shared memory), then the
// shape of the wrong elements (never written, transposed, running sums), then what the product
// would be under each common mistake (an operand read transposed or from the wrong matrix, a
// tiling mistake, integer truncation), then coarse patterns over the tile grid. The rules live in
// diagnose_patterns.cpp, diagnose_sum.cpp (a reduction's sum) and diagnose_product.cpp; the check's
// choice among its cases' diagnoses is here, the speed checks' in diagnose_speed.cpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "diagnose_rules.hpp"
#include "harness/diagnose.hpp"

namespace harness::rules {

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_output(Values a, Values b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_bits(a[i], b[i]) && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
  }
  return true;
}

bool close(float value, double target, Values tolerance, std::size_t i) {
  if (!std::isfinite(value) || !std::isfinite(target)) return false;
  if (tolerance.empty()) return value == static_cast<float>(target);
  return std::fabs(static_cast<double>(value) - target) <=
         static_cast<double>(tolerance[i]) + 1e-6 * std::fabs(target);
}

bool is_right(const DiagnosisInput& in, std::size_t i) {
  return close(in.got[i], in.expected[i], in.tolerance, i);
}

Counts count(const DiagnosisInput& in) {
  Counts c;
  for (std::size_t i = 0; i < in.got.size(); ++i) {
    if (std::isnan(in.got[i])) ++c.nan;
    if (!is_right(in, i)) ++c.wrong;
  }
  return c;
}

std::string plural(long long n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace harness::rules

namespace harness {

using namespace rules;

std::optional<Diagnosis> diagnose_launch_error(const std::string& error_text) {
  // The launcher process loaded a CUDA library (cuBLAS) to do the work.
  if (const auto at = error_text.find("your launcher loaded "); at != std::string::npos) {
    return make_diagnosis("library_kernel", error_text.substr(at));
  }
  // Only a refused launch (the message synchronize_after gives), not a fault while running.
  if (error_text.find("launch failed") == std::string::npos) return std::nullopt;
  const bool bad_configuration =
      error_text.find("cudaErrorInvalidValue") != std::string::npos ||
      error_text.find("cudaErrorInvalidConfiguration") != std::string::npos;
  if (!bad_configuration) return std::nullopt;
  return make_diagnosis("grid_too_small",
                        "the GPU refused the launch as invalid: most often a grid of 0 blocks, "
                        "which size / BLOCK gives for sizes below the block");
}

std::vector<int> tile_candidates(const std::optional<LaunchShape>& launch) {
  std::vector<int> tiles;
  if (launch && launch->block[0] > 1 && launch->block[0] == launch->block[1]) {
    tiles.push_back(static_cast<int>(launch->block[0]));
  }
  for (const int t : {16, 32, 8}) {
    if (std::find(tiles.begin(), tiles.end(), t) == tiles.end()) tiles.push_back(t);
  }
  return tiles;
}

CaseFindings examine_case(const DiagnosisInput& in) {
  CaseFindings found;
  auto& d = found.diagnosis;
  if ((d = out_of_bounds(in))) return found;
  if ((d = failed_launch(in))) return found;
  const auto total = static_cast<std::size_t>(std::max(0LL, in.rows * in.cols));
  if (in.got.empty() || in.got.size() != total || in.expected.size() != total ||
      (!in.tolerance.empty() && in.tolerance.size() != total)) {
    return found;
  }
  const Counts counts = count(in);
  if (counts.wrong == 0) return found;
  if ((d = never_written(in, counts))) return found;
  if ((d = from_shared_memory(in, found.output_repeats))) return found;
  if ((d = from_outside_reads(in))) return found;
  if ((d = from_partial_sums(in))) return found;
  if ((d = uncovered_border(in, counts))) return found;
  if ((d = reduced_precision(in, counts))) return found;
  if ((d = transposed(in))) return found;
  if ((d = running_sums(in))) return found;
  if ((d = from_product(in, counts))) return found;
  if ((d = tile_patterns(in, counts))) return found;
  d = garbage(in, counts);
  return found;
}

std::optional<Diagnosis> diagnose_case(const DiagnosisInput& in) {
  return examine_case(in).diagnosis;
}

namespace {

// The diagnosis that fits the most failed cases (choose_check_diagnosis).
std::optional<Diagnosis> most_fitting(const std::vector<CaseResult>& cases) {
  std::map<std::string, int> votes;
  std::vector<std::string> order;  // ids in the order of the cases that name them
  for (const auto& c : cases) {
    if (c.verdict == Verdict::pass || !c.diagnosis) continue;
    std::vector<std::string> ids{c.diagnosis->id};
    ids.insert(ids.end(), c.diagnosis->also.begin(), c.diagnosis->also.end());
    for (const auto& id : ids) {
      if (votes[id]++ == 0) order.push_back(id);
    }
  }
  if (order.empty()) return std::nullopt;
  std::string best = order.front();
  for (const auto& id : order) {
    if (votes[id] > votes[best]) best = id;
  }
  int failed_with = 0;
  for (const auto& c : cases) failed_with += c.verdict != Verdict::pass && c.diagnosis ? 1 : 0;
  // The evidence comes from the first case that names `best` first: its words were written for
  // it (a case that only lists it as fitting too explains its own first mistake). Failing that,
  // from the first case that lists it.
  const auto names_first = [&](const CaseResult& c) {
    return c.verdict != Verdict::pass && c.diagnosis && c.diagnosis->id == best;
  };
  const bool some_case_names_it_first = std::any_of(cases.begin(), cases.end(), names_first);
  for (const auto& c : cases) {
    if (c.verdict == Verdict::pass || !c.diagnosis) continue;
    const bool primary = c.diagnosis->id == best;
    const bool also = std::find(c.diagnosis->also.begin(), c.diagnosis->also.end(), best) !=
                      c.diagnosis->also.end();
    if (!primary && (!also || some_case_names_it_first)) continue;
    Diagnosis d = primary ? *c.diagnosis : make_diagnosis(best, c.diagnosis->evidence);
    if (!primary) d.also = {c.diagnosis->id};
    d.evidence = fmt::format("case {}: {}{}", c.name, d.evidence,
                             failed_with > 1 ? fmt::format(" (fits {} of the {} diagnosed failed "
                                                           "cases)",
                                                           votes[best], failed_with)
                                             : std::string());
    return d;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Diagnosis> choose_check_diagnosis(const std::vector<CaseResult>& cases) {
  if (auto d = diagnose_sizes(cases)) return d;
  return most_fitting(cases);
}

}  // namespace harness
