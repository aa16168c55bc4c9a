// What was measured in a submission's kernels (contract::Evidence) reaches the records of the
// checks it speaks for, whichever run measured it: a batch runs its speed checks in a run apart
// from the correctness run, and on a GPU the facts come from the emulated pass after the GPU's
// runs. A slow check then names its cause from them (harness/evidence_diagnosis.hpp). Feedback
// only: no verdict or point changes.
#pragma once

#include <string>
#include <vector>

#include "contract/record.hpp"

namespace batch {

// The facts measured in one check's run.
struct CheckEvidence {
  std::string check;
  std::vector<contract::Evidence> facts;
};

// The records' facts, check by check (records without facts left out).
std::vector<CheckEvidence> evidence_of(const std::vector<contract::CheckRecord>& records);

// Gives each record without facts those measured in its own check's run, and a speed check
// (whose run measures no access) those of its suite's checks ("TransposeTiled.Correctness" for
// "TransposeTiled.Speed": the same function, the same kernels; another suite's kernel is not
// its own). A failed speed check whose diagnosis named no cause (none, or slow_kernel) is then
// diagnosed from its facts.
void share_evidence(const std::vector<CheckEvidence>& measured,
                    std::vector<contract::CheckRecord>& records);

}  // namespace batch
