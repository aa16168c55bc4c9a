// A slow kernel's diagnosis from what was measured in it (contract::Evidence: the CPU emulator's
// evidence engine), never from the speed figure alone: "uncoalesced" only where the accesses
// measured are. Host-only, shared by the lab program (harness/checks/src/diagnose_speed.cpp) and
// the batch, which gets the facts from its emulated pass after the GPU's run.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contract/record.hpp"

namespace harness {

// The catalogue id a performance fact names ("bank_conflict" -> "bank_conflicts"), or nothing for
// a fact that says nothing about speed (an aliasing write, a read before a write) or not at the
// speed check's size: idle blocks are measured at the emulation's small sizes, where a grid
// sized for the GPU (a grid-stride kernel's) idles and at 4096 does not.
std::optional<std::string_view> speed_mistake_of(const contract::Evidence& fact);

// How many times slower the fact makes the access it measured, roughly: sectors over the ideal,
// the conflict degree, the warp over its active lanes.
double slowdown_of(const contract::Evidence& fact);

// "15% of cudaMemcpy device to device in the same run": a slow check's figure against its
// reference, the first words of its diagnosis.
std::string speed_against(const contract::Timing& timing);

// The fact that costs the most as the primary (its words, where and how it was measured, and
// `against`: "15% of cudaMemcpy device to device in the same run"), the others' ids as also.
// Nothing when no fact speaks of speed.
std::optional<contract::Diagnosis> diagnose_speed_evidence(
    const std::vector<contract::Evidence>& facts, std::string_view against);

}  // namespace harness
