#include "batch/secret_seed.hpp"

#include <random>

namespace batch {

std::uint64_t fresh_secret_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 16 ^ device()) % 1000000000ULL;
}

}  // namespace batch
