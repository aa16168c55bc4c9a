// HTML for the facts measured in the student's kernels (contract::Evidence: under the CPU
// emulation, the emulator's evidence engine), shown beside a check's verdict and, for speed, beside
// the figure or "not measured". Every text from a record is escaped here (records are untrusted
// input, and the facts' words come from the process that ran the student's code).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "check_view.hpp"
#include "contract/record.hpp"

namespace reports::detail {

// "What the CPU emulation measured in your kernel" and one item per fact; empty without facts.
std::string evidence_block(const std::vector<contract::Evidence>& facts);

// The facts of the speed checks, each once (kind, file and line), for the Speed section; when
// they have none (a batch times in a run of its own), those of the other checks. At most 12.
std::vector<contract::Evidence> speed_evidence(std::span<const CheckView> checks);

// The Speed section's block: speed_evidence's facts, or that the emulation found none of the slow
// patterns it measures, or that nothing was measured (a GPU's run: "not measured").
std::string speed_evidence_block(std::span<const CheckView> checks);

}  // namespace reports::detail
