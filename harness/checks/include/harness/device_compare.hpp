// Comparisons on the GPU, for outputs too large to copy back and check element by element on the
// host in good time (a 4096 x 4096 product is 16 M elements). They answer "is it right?" and
// give the figures a passing case reports; a wrong output is copied back and checked on the host
// for the details (positions, error map, diagnosis).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace harness {

struct DeviceComparison {
  long long mismatches = 0;       // NaN and Inf never pass
  long long first_mismatch = -1;  // the lowest wrong index (-1: none)
  double max_abs_error = 0;       // over the finite elements
  double max_tolerance = 0;       // 0 for an exact comparison
  std::string digest;             // output_digest of `got` (compare.hpp): the same value
};

// `got` against `expected`: exactly when `tolerance` is null, else element i passes when
// |got - expected| <= float(scale * tolerance[i]) (as expected_product computes the bound).
DeviceComparison compare_on_device(const float* expected, const float* got, const float* tolerance,
                                   double scale, std::size_t count);

// The element at `index` of device memory, copied back (for a message about one element).
float element_on_device(const float* values, long long index);

// How many elements differ between two device buffers (NaN counts as different).
long long count_differences_on_device(const float* a, const float* b, std::size_t count);
long long count_differences_on_device(const std::int32_t* a, const std::int32_t* b,
                                      std::size_t count);

// output_digest (compare.hpp) of device memory, without copying it back.
std::string output_digest_on_device(const float* values, std::size_t count);

// out[i] = |in[i]|, on the GPU (the magnitudes the tolerance of a real product is built from).
void absolute_values_on_device(const float* in, float* out, std::size_t count);

}  // namespace harness
