// Comparison of a result matrix with the expected one. Host-only: it runs on what the GPU wrote,
// copied back. NaN and Inf never pass, whatever the tolerance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/contract.hpp"

namespace harness {

struct CompareOptions {
  int max_listed = 10;      // mismatches listed by position
  int max_map_cells = 128;  // error map cells per side (large matrices are downsampled)
};

// Compares element by element. `tolerance` empty: exact equality; otherwise one absolute
// tolerance per element (derived by the caller from K and |A|.|B|). Fills everything in the case
// but its name; the verdict is pass when no element is wrong. Exact comparisons also record the
// output's digest.
CaseResult compare_matrices(const std::vector<float>& expected, const std::vector<float>& got,
                            long long rows, long long cols,
                            const std::vector<float>& tolerance = {},
                            const CompareOptions& options = {});

// A digest of a matrix's values (the sum of digest_term over its elements: digest_term.hpp; zeros
// of either sign counted as +0), as 16 hex digits. Exact results are bit-for-bit the same
// whichever correct kernel made them, so two runs with the same seed can be compared by digest
// alone. output_digest_on_device (device_compare.hpp) gives the same digest without a copy.
std::string output_digest(const float* values, std::size_t count);
std::string format_digest(std::uint64_t sum);

// One line for a student: how many are wrong, how many were never written, the first position.
std::string describe_mismatches(const CaseResult& result);

}  // namespace harness
