// A check's time limit from the reference solution's duration: generous (ten times, and at least
// 20 s, for a busy machine and a slower but honest kernel), but a hang no longer holds the GPU for
// the spec's whole limit. Never above the spec's or the instructor's limit (run_checks takes the
// smaller).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "contract/record.hpp"

namespace batch {

inline constexpr double kLimitOverReference = 10;
inline constexpr double kLeastCheckLimit = 20;
// Under the CPU emulation a barrier switches every thread of the block in turn, so a kernel with
// many more barriers than the reference (a correct but slow one: sample erin) runs far more than
// ten times longer there than on a GPU.
inline constexpr double kEmulatedLimitOverReference = 40;

struct ReferenceLimits {
  double over_reference = kLimitOverReference;  // the factor used
  std::map<std::string, double> seconds;        // check id -> limit; passed, timed checks only
};

// The limits the reference's records give: each passed check with a duration gets
// max(kLeastCheckLimit, factor x its duration); the factor is the emulation's when a record ran
// under it.
ReferenceLimits limits_from_reference(const std::vector<contract::CheckRecord>& records);

}  // namespace batch
