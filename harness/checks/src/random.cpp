#include "harness/random.hpp"

#include <random>
#include <stdexcept>

namespace harness {
namespace {

// FNV-1a: stable across compilers and runs, unlike std::hash.
std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 1469598103934665603ULL) {
  for (unsigned char ch : text) {
    hash ^= ch;
    hash *= 1099511628211ULL;
  }
  return hash;
}

}  // namespace

std::uint64_t derive_seed(std::uint64_t run_seed, std::string_view check, std::string_view label) {
  return fnv1a(label, fnv1a(check, run_seed * 0x9E3779B97F4A7C15ULL + 1));
}

std::vector<float> random_real_matrix(long long rows, long long cols, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<size_t>(rows * cols));
  for (auto& v : values) {
    do {
      v = uniform(engine);
    } while (v == 0.0f);
  }
  return values;
}

std::vector<float> random_integer_matrix(long long rows, long long cols, std::uint64_t seed,
                                         int low, int high) {
  if (low > high) throw std::invalid_argument("random_integer_matrix: low > high");
  std::mt19937_64 engine(seed);
  std::uniform_int_distribution<int> uniform(low, high);
  std::vector<float> values(static_cast<size_t>(rows * cols));
  for (auto& v : values) {
    const int drawn = uniform(engine);
    v = static_cast<float>(drawn == 0 ? high : drawn);
  }
  return values;
}

std::vector<float> random_sparse_unit_matrix(long long rows, long long cols, std::uint64_t seed,
                                             unsigned one_in) {
  std::mt19937_64 engine(seed);
  std::vector<float> values(static_cast<size_t>(rows * cols));
  for (auto& v : values) {
    const std::uint64_t z = engine();
    v = z % one_in != 0 ? 0.0f : ((z >> 32) & 1 ? 1.0f : -1.0f);
  }
  return values;
}

}  // namespace harness
