#include "harness/random.hpp"

#include <charconv>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

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

std::uint64_t parse_seed(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    throw std::invalid_argument("the seed must be a non-negative integer, got '" +
                                std::string(text) + "'");
  }
  return value;
}

}  // namespace

std::uint64_t choose_seed(std::optional<std::string_view> given) {
  if (given) return parse_seed(*given);
  if (const char* env = std::getenv("LAB_SEED"); env && *env) return parse_seed(env);
  std::random_device device;
  // Keep seeds short enough to type: 9 decimal digits.
  return (static_cast<std::uint64_t>(device()) << 16 ^ device()) % 1000000000ULL;
}

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

}  // namespace harness
