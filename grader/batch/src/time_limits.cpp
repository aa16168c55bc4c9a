#include "batch/time_limits.hpp"

#include <algorithm>

namespace batch {

ReferenceLimits limits_from_reference(const std::vector<contract::CheckRecord>& records) {
  ReferenceLimits limits;
  const bool emulated = std::any_of(records.begin(), records.end(), [](const auto& record) {
    return record.backend.starts_with("emulation");
  });
  limits.over_reference = emulated ? kEmulatedLimitOverReference : kLimitOverReference;
  for (const auto& record : records) {
    if (record.verdict != contract::Verdict::pass || record.duration_s <= 0) continue;
    limits.seconds[record.check] =
        std::max(kLeastCheckLimit, limits.over_reference * record.duration_s);
  }
  return limits;
}

}  // namespace batch
