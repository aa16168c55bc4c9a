// HTML for what the harness found out beyond the verdict: the likely mistake with its hint and
// handout section, the resources of the kernels that ran, and the GPU's health during timing.
// Every text from a record is escaped here (records are untrusted input).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "contract/record.hpp"

namespace reports::detail {

// The check's diagnosis as its one primary mistake, shown first (the likely mistake, why the
// harness thinks so, what to look at, and where the handout explains it: `handout` is the
// handout's path, shown as text; empty: the anchor alone), with the other mistakes its
// cases or its own `also` name as "Also", each with its evidence: a case's own words and name
// where a failed case named it first, else "fits the same evidence". Each other mistake once.
std::string diagnosis_box(const contract::Diagnosis& primary,
                          const std::vector<contract::CaseResult>& cases,
                          const std::string& handout);

// A case's line under a check with a primary diagnosis: nothing, since the box shows the case's
// mistake already (the primary, or an "Also" with this case's evidence). Without a primary, the
// case's own "Likely: <summary> (<evidence>)" line.
std::string diagnosis_line(const contract::Diagnosis& diagnosis,
                           const std::optional<contract::Diagnosis>& primary);

// Registers, shared memory, spills and theoretical occupancy of each kernel, with its reading.
std::string kernel_facts_table(const std::vector<contract::KernelFacts>& kernels);

}  // namespace reports::detail
