// What was measured in a submission's kernels (contract::Evidence) reaches every check's record,
// whichever run measured it: a batch runs its speed checks in a run of their own, and on a GPU
// the facts come from the emulated pass after the GPU's runs. A slow check then names its cause
// from them (harness/evidence_diagnosis.hpp). Feedback only: no verdict or point changes.
#pragma once

#include <vector>

#include "contract/record.hpp"

namespace batch {

// Every record's facts, each once (kind, file and line), at most harness's cap (8).
std::vector<contract::Evidence> evidence_of(const std::vector<contract::CheckRecord>& records);

// Gives `facts` to the records that have none, and re-diagnoses a failed speed check whose
// diagnosis named no cause (none, or slow_kernel) from them.
void share_evidence(const std::vector<contract::Evidence>& facts,
                    std::vector<contract::CheckRecord>& records);

}  // namespace batch
