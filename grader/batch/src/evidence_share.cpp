#include "batch/evidence_share.hpp"

#include <algorithm>

#include "harness/evidence_diagnosis.hpp"

namespace batch {
namespace {

constexpr std::size_t kMostFacts = 8;  // as the lab program keeps (harness::kMaxEvidence)

std::vector<contract::Evidence> facts_for(const std::vector<CheckEvidence>& measured,
                                          const contract::CheckRecord& record) {
  std::vector<contract::Evidence> facts;
  for (const auto& run : measured) {
    if (run.check != record.check) continue;
    for (const auto& fact : run.facts) contract::add_evidence(facts, fact, kMostFacts);
  }
  if (!facts.empty() || record.kind != "speed") return facts;
  for (const auto& run : measured) {
    if (contract::suite_of(run.check) != contract::suite_of(record.check)) continue;
    for (const auto& fact : run.facts) contract::add_evidence(facts, fact, kMostFacts);
  }
  return facts;
}

bool slow_without_cause(const contract::CheckRecord& record) {
  const bool slow = record.verdict == contract::Verdict::fail && record.timing &&
                    record.timing->threshold > 0 && record.timing->ratio < record.timing->threshold;
  return slow && (!record.diagnosis || record.diagnosis->id == "slow_kernel");
}

}  // namespace

std::vector<CheckEvidence> evidence_of(const std::vector<contract::CheckRecord>& records) {
  std::vector<CheckEvidence> measured;
  for (const auto& record : records) {
    if (!record.evidence.empty()) measured.push_back({record.check, record.evidence});
  }
  return measured;
}

void share_evidence(const std::vector<CheckEvidence>& measured,
                    std::vector<contract::CheckRecord>& records) {
  for (auto& record : records) {
    if (!record.evidence.empty()) continue;
    record.evidence = facts_for(measured, record);
    if (record.evidence.empty() || !slow_without_cause(record)) continue;
    if (auto cause = harness::diagnose_speed_evidence(record.evidence,
                                                      harness::speed_against(*record.timing))) {
      record.diagnosis = std::move(cause);
    }
  }
}

}  // namespace batch
