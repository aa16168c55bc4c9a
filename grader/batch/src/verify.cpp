#include "batch/verify.hpp"

#include <fmt/format.h>

namespace batch {

using contract::Verdict;

Attestation attestation_of(const std::vector<contract::CheckRecord>& reference_records) {
  Attestation attestation;
  for (const auto& record : reference_records) {
    for (const auto& one : record.cases) {
      if (one.verdict == Verdict::pass && !one.output_digest.empty()) {
        attestation[{record.check, one.name}] = one.output_digest;
      }
    }
    if (record.timing && !record.timing->output_digest.empty() && record.verdict != Verdict::fail) {
      attestation[{record.check, "timing"}] = record.timing->output_digest;
    }
  }
  return attestation;
}

Verification verify_records(const Attestation& attestation,
                            const std::vector<contract::CheckRecord>& records) {
  Verification result;
  const auto expect = [&](const std::string& check, const std::string& what,
                          const std::string& digest) {
    const auto it = attestation.find({check, what});
    if (it == attestation.end()) return;
    if (digest == it->second) {
      ++result.verified;
    } else {
      result.problems.push_back(fmt::format(
          "{} ({}): the record claims a correct output, but its digest {} is not the digest "
          "of the right answer",
          check, what, digest.empty() ? std::string("(none)") : digest));
    }
  };
  for (const auto& record : records) {
    for (const auto& one : record.cases) {
      if (one.verdict == Verdict::pass) expect(record.check, one.name, one.output_digest);
    }
    if (record.verdict == Verdict::pass && record.timing) {
      expect(record.check, "timing", record.timing->output_digest);
    }
  }
  return result;
}

void reject_records(std::vector<contract::CheckRecord>& records, const std::string& why) {
  for (auto& record : records) {
    record.verdict = Verdict::error;
    record.fraction = 0;
    record.reason = why;
  }
}

}  // namespace batch
