// HTML for what the harness found out beyond the verdict: the likely mistake with its hint and
// handout section, the resources of the kernels that ran, and the GPU's health during timing.
// Every text from a record is escaped here (records are untrusted input).
#pragma once

#include <string>
#include <vector>

#include "contract/record.hpp"

namespace reports::detail {

// The likely mistake, why the harness thinks so, what to look at, and where the handout explains
// it (`handout` is the handout's path, shown as text; empty: the anchor alone).
std::string diagnosis_box(const contract::Diagnosis& diagnosis, const std::string& handout);

// One line for a case: "Likely: <summary>".
std::string diagnosis_line(const contract::Diagnosis& diagnosis);

// Registers, shared memory, spills and theoretical occupancy of each kernel, with its reading.
std::string kernel_facts_table(const std::vector<contract::KernelFacts>& kernels);

}  // namespace reports::detail
