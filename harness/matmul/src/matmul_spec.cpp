#include "harness/matmul_spec.hpp"

#include <string>

#include <fmt/format.h>

namespace harness {
namespace {

MatmulShape to_shape(const CheckSpec& spec, std::string_view key, const std::vector<int>& mkn,
                     int max_size) {
  if (mkn.size() != 3) {
    std::string given;
    for (int size : mkn) given += fmt::format("{}{}", given.empty() ? "" : ", ", size);
    throw SpecError(fmt::format("{}: check '{}': '{}' holds shapes [m, k, n], got [{}]",
                                spec.source, spec.id, key, given));
  }
  const int m = mkn[0];
  const int k = mkn[1];
  const int n = mkn[2];
  if (m < 1 || k < 1 || n < 1 || m > max_size || k > max_size || n > max_size) {
    throw SpecError(
        fmt::format("{}: check '{}': '{}': every size must be between 1 and {}, got [{}, {}, {}]",
                    spec.source, spec.id, key, max_size, m, k, n));
  }
  if (1LL * m * k >= (1LL << 31) || 1LL * k * n >= (1LL << 31) || 1LL * m * n >= (1LL << 31)) {
    throw SpecError(fmt::format(
        "{}: check '{}': '{}': [{}, {}, {}] is too large for the contract (int indices)",
        spec.source, spec.id, key, m, k, n));
  }
  return MatmulShape{m, k, n};
}

}  // namespace

MatmulShape matmul_shape(const CheckSpec& spec, std::string_view key, int max_size) {
  return to_shape(spec, key, spec.param<std::vector<int>>(key), max_size);
}

std::vector<MatmulShape> matmul_shapes(const CheckSpec& spec, std::string_view key, int max_size) {
  const auto list = spec.param<std::vector<std::vector<int>>>(key);
  if (list.empty()) {
    throw SpecError(fmt::format("{}: check '{}': '{}' must list at least one shape", spec.source,
                                spec.id, key));
  }
  std::vector<MatmulShape> shapes;
  for (const auto& mkn : list) shapes.push_back(to_shape(spec, key, mkn, max_size));
  return shapes;
}

std::vector<Values> spec_values(const CheckSpec& spec) {
  if (!spec.has("values")) return {Values::integers};
  std::vector<Values> kinds;
  for (const auto& name : spec.param<std::vector<std::string>>("values")) {
    if (name == "integers") {
      kinds.push_back(Values::integers);
    } else if (name == "reals") {
      kinds.push_back(Values::reals);
    } else {
      throw SpecError(
          fmt::format("{}: check '{}': 'values' holds \"integers\" or \"reals\", not \"{}\"",
                      spec.source, spec.id, name));
    }
  }
  return kinds;
}

}  // namespace harness
