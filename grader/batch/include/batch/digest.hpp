// A 64-bit FNV-1a digest for cache keys and fingerprints. Not cryptographic: a cached result is
// reused only when the stored kernel text also equals the submission byte for byte, so a
// collision can cost a cache miss, never a wrong grade.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace batch {

class Digest {
 public:
  void add(std::string_view bytes) {
    for (unsigned char ch : bytes) {
      hash_ ^= ch;
      hash_ *= 1099511628211ULL;
    }
    hash_ ^= 0xFF;  // a separator, so ("ab", "c") and ("a", "bc") differ
    hash_ *= 1099511628211ULL;
  }
  std::string hex() const;

 private:
  std::uint64_t hash_ = 1469598103934665603ULL;
};

}  // namespace batch
