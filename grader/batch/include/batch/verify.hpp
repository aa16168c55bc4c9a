// The grader's own check of what a sandboxed lab program reported. Exact results (integer-valued
// products, copies) are the same bits whichever correct kernel computed them, so the digests a
// trusted run of the instructor's solution produced with the same secret seed say what every
// passing record must carry. A record that claims a pass without the right digest was not
// produced by the harness from a correct output: the run's results are rejected.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "contract/record.hpp"

namespace batch {

// (check id, case name or "timing") -> digest of the exact output.
using Attestation = std::map<std::pair<std::string, std::string>, std::string>;

Attestation attestation_of(const std::vector<contract::CheckRecord>& reference_records);

struct Verification {
  int verified = 0;                   // passing exact outputs whose digests matched
  std::vector<std::string> problems;  // claims that did not match (empty: nothing suspicious)
};

Verification verify_records(const Attestation& attestation,
                            const std::vector<contract::CheckRecord>& records);

// Replaces every record's verdict with an error that says why the results were not believed.
void reject_records(std::vector<contract::CheckRecord>& records, const std::string& why);

}  // namespace batch
