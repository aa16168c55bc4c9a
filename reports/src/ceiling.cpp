#include "reports/ceiling.hpp"

#include <cmath>

#include <fmt/format.h>

#include "format.hpp"
#include "harness/ceiling.hpp"

namespace reports {
namespace {

bool ceiling_known(double ceiling) { return std::isfinite(ceiling) && ceiling > 0; }

// The harness names its ceilings "this GPU's FP32 peak (...)"; a record without a name still
// says what kind of limit it is.
std::string_view ceiling_name_of(const contract::Timing& timing) {
  return timing.ceiling_name.empty() ? std::string_view("this GPU's physical ceiling")
                                     : std::string_view(timing.ceiling_name);
}

}  // namespace

std::string format_rate(double rate, std::string_view unit) {
  if (unit.starts_with('G') && std::isfinite(rate) && std::abs(rate) >= 1000) {
    return fmt::format("{} T{}", detail::format_significant(rate / 1000), unit.substr(1));
  }
  return fmt::format("{} {}", detail::format_significant(rate), unit);
}

bool beyond_ceiling(const contract::Timing& timing) {
  // The lab program's own rule, margin included, so that a figure it let pass is never called
  // implausible here.
  return harness::beyond_ceiling(timing).has_value();
}

std::string ceiling_words(const contract::Timing& timing) {
  if (!ceiling_known(timing.ceiling)) return {};
  return fmt::format("{}, {}", format_rate(timing.ceiling, timing.rate_unit),
                     ceiling_name_of(timing));
}

std::string implausible_words(const contract::Timing& timing) {
  const std::string measured = format_rate(timing.rate, timing.rate_unit);
  if (!ceiling_known(timing.ceiling)) {
    return fmt::format("implausible: measured {}, more than this GPU can do", measured);
  }
  return fmt::format("implausible: measured {}, beyond {} of {}", measured, ceiling_name_of(timing),
                     format_rate(timing.ceiling, timing.rate_unit));
}

std::string verified_words(const contract::Timing& timing) {
  if (timing.verified_calls <= 0) return {};
  return fmt::format("verified on {} timed call{}", timing.verified_calls,
                     timing.verified_calls == 1 ? "" : "s");
}

}  // namespace reports
