// The rounding error bound of a float32 dot product of length k (Higham's gamma_k): the matmul
// checks' tolerances (matmul.cpp, on the host; matmul_large.cpp, on the GPU) are multiples of it.
#pragma once

namespace harness {

constexpr double kUnitRoundoff = 1.0 / 16777216.0;  // 2^-24, float32

inline double gamma(int k) {
  const double ku = k * kUnitRoundoff;
  return ku / (1.0 - ku);
}

}  // namespace harness
