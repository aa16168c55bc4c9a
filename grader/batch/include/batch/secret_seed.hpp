// The seed of a batch's inputs when the instructor gives none: fresh and secret, so that no
// submission can be tuned to the inputs it will meet. A batch and a shard plan both draw it here.
#pragma once

#include <cstdint>

namespace batch {

// A random seed below 10^9 (short enough to read in a log and type in a replay).
std::uint64_t fresh_secret_seed();

}  // namespace batch
