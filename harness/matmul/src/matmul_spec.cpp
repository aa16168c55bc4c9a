#include "harness/matmul_spec.hpp"

#include <string>

#include <fmt/format.h>

namespace harness {
namespace {

const std::vector<std::string> kShape{"m", "k", "n"};

MatmulShape to_shape(const CheckSpec& spec, const std::vector<long long>& mkn) {
  const auto m = mkn[0];
  const auto k = mkn[1];
  const auto n = mkn[2];
  if (m * k >= (1LL << 31) || k * n >= (1LL << 31) || m * n >= (1LL << 31)) {
    throw SpecError(fmt::format(
        "{}: check '{}': 'sizes': [{}, {}, {}] is too large for the contract (int indices)",
        spec.source, spec.id, m, k, n));
  }
  return MatmulShape{static_cast<int>(m), static_cast<int>(k), static_cast<int>(n)};
}

}  // namespace

MatmulShape matmul_shape(const CheckSpec& spec, int max_size) {
  return to_shape(spec, spec.size(kShape, max_size));
}

std::vector<MatmulShape> matmul_shapes(const CheckSpec& spec, int max_size) {
  std::vector<MatmulShape> shapes;
  for (const auto& mkn : spec.sizes(kShape, max_size)) shapes.push_back(to_shape(spec, mkn));
  return shapes;
}

std::vector<Values> spec_values(const CheckSpec& spec) {
  std::vector<Values> kinds;
  for (const auto& name : spec.param_or_default<std::vector<std::string>>("values")) {
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
