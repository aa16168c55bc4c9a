// One element's share of an output's digest (output_digest in compare.hpp), the same code on the
// host and on the GPU. The digest is the sum, modulo 2^64, of a SplitMix64 mix of each element's
// index and bits: a sum of independent terms is what the GPU adds up in parallel, and a 4096 x
// 4096 output is hashed in a millisecond there instead of a tenth of a second on the host.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LABS_HOST_DEVICE __host__ __device__
#else
#define LABS_HOST_DEVICE
#endif

namespace harness {

LABS_HOST_DEVICE inline std::uint64_t digest_term(std::uint64_t index, std::uint32_t bits) {
  // Zeros of either sign count as +0: a correct kernel may produce -0 where another gives +0.
  if ((bits & 0x7FFFFFFFu) == 0) bits = 0;
  std::uint64_t z = (index << 32 | bits) + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace harness
