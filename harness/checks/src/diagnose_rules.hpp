// What the rules behind diagnose_case share (diagnose.cpp runs them in order): the comparison of
// one element, the counts of wrong elements, and the rules themselves, each in the file of its
// kind: diagnose_patterns.cpp (the guard zones, the launch, experiments and the shape of the wrong
// elements) and diagnose_product.cpp (what the product would be under each common mistake).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "harness/diagnose.hpp"

namespace harness::rules {

using Values = Floats;

// Are the two floats the same bits?
bool same_bits(float a, float b);

// Are the two outputs the same, bit for bit (any NaN equal to any NaN)?
bool same_output(Values a, Values b);

// Does `value` (what the kernel wrote) equal `target` (a value some rule predicts) at element i?
// Exact for exact comparisons; within the element's tolerance (and a hair for the rounding of the
// prediction itself) otherwise.
bool close(float value, double target, Values tolerance, std::size_t i);

bool is_right(const DiagnosisInput& in, std::size_t i);

struct Counts {
  long long wrong = 0;
  long long nan = 0;
};

Counts count(const DiagnosisInput& in);

// "1 element", "3 elements".
std::string plural(long long n, std::string_view one, std::string_view many);

// ---- diagnose_patterns.cpp, in the order diagnose_case tries them -------------------------
std::optional<Diagnosis> out_of_bounds(const DiagnosisInput& in);
std::optional<Diagnosis> failed_launch(const DiagnosisInput& in);
std::optional<Diagnosis> never_written(const DiagnosisInput& in, const Counts& counts);
std::optional<Diagnosis> from_shared_memory(const DiagnosisInput& in,
                                            std::optional<bool>& output_repeats);
std::optional<Diagnosis> from_outside_reads(const DiagnosisInput& in);
// ---- diagnose_sum.cpp: a reduction's sum that is the sum of a part of its input ------------
std::optional<Diagnosis> from_partial_sums(const DiagnosisInput& in);
// ---- diagnose_patterns.cpp, continued -------------------------------------------------------
std::optional<Diagnosis> uncovered_border(const DiagnosisInput& in, const Counts& counts);
std::optional<Diagnosis> reduced_precision(const DiagnosisInput& in, const Counts& counts);
std::optional<Diagnosis> transposed(const DiagnosisInput& in);
std::optional<Diagnosis> running_sums(const DiagnosisInput& in);
// ---- diagnose_product.cpp -----------------------------------------------------------------
std::optional<Diagnosis> from_product(const DiagnosisInput& in, const Counts& counts);
// ---- diagnose_patterns.cpp: coarse patterns over the tile grid, and the last resort --------
std::optional<Diagnosis> tile_patterns(const DiagnosisInput& in, const Counts& counts);
std::optional<Diagnosis> garbage(const DiagnosisInput& in, const Counts& counts);

}  // namespace harness::rules
