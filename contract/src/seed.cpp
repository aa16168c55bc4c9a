#include "contract/seed.hpp"

#include <charconv>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>

namespace contract {
namespace {

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

}  // namespace contract
