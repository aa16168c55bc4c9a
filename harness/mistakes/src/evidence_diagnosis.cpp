#include "harness/evidence_diagnosis.hpp"

#include <algorithm>
#include <string>

#include "harness/mistakes.hpp"

namespace harness {

std::optional<std::string_view> speed_mistake_of(const contract::Evidence& fact) {
  if (fact.kind == "uncoalesced_access") return "uncoalesced_access";
  if (fact.kind == "bank_conflict") return "bank_conflicts";
  if (fact.kind == "divergence") return "divergent_warps";
  return std::nullopt;
}

std::string speed_against(const contract::Timing& timing) {
  return std::to_string(static_cast<int>(timing.ratio * 100 + 0.5)) + "% of " +
         timing.reference_name + " in the same run";
}

double slowdown_of(const contract::Evidence& fact) {
  const double high = std::max(fact.figure, fact.ideal);
  const double low = std::min(fact.figure, fact.ideal);
  return low > 0 ? high / low : high;
}

std::optional<contract::Diagnosis> diagnose_speed_evidence(
    const std::vector<contract::Evidence>& facts, std::string_view against) {
  const contract::Evidence* worst = nullptr;
  for (const auto& fact : facts) {
    if (!speed_mistake_of(fact)) continue;
    if (!worst || slowdown_of(fact) > slowdown_of(*worst)) worst = &fact;
  }
  if (!worst) return std::nullopt;
  auto diagnosis = make_diagnosis(
      *speed_mistake_of(*worst),
      std::string(against) + "; measured by the " +
          (worst->source == "emulation" ? std::string("CPU emulation") : worst->source) + ": " +
          worst->words);
  for (const auto& fact : facts) {
    const auto id = speed_mistake_of(fact);
    if (!id || &fact == worst || *id == diagnosis.id) continue;
    if (std::find(diagnosis.also.begin(), diagnosis.also.end(), *id) == diagnosis.also.end()) {
      diagnosis.also.emplace_back(*id);
    }
  }
  return diagnosis;
}

}  // namespace harness
