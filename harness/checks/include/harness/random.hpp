// Seeded inputs. Every run draws a fresh seed (printed, stored in the record) unless one is given,
// so a failure can be replayed exactly. Host-only.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "contract/seed.hpp"

namespace harness {

// The seed for this run: --seed (passed in), else LAB_SEED, else a random one
// (contract/seed.hpp: labgrade chooses it by the same rule).
using contract::choose_seed;

// A seed for one case of one check, so cases are independent of the order they run in.
std::uint64_t derive_seed(std::uint64_t run_seed, std::string_view check, std::string_view label);

// Uniform floats in [-1, 1) with no zeros: a zero output must never look like a correct one.
std::vector<float> random_real_matrix(long long rows, long long cols, std::uint64_t seed);

// Small integers from [low, high] with zeros replaced by `high`: sums of products stay exact in
// float32, so results can be compared bit for bit.
std::vector<float> random_integer_matrix(long long rows, long long cols, std::uint64_t seed,
                                         int low = -4, int high = 4);

// +1 or -1 at one element in `one_in`, 0 elsewhere (DeviceBuffer::fill_random_sparse_units's
// distribution): sums of many stay exact in float32 in any order, so a reduction of 2^28 of them
// is compared bit for bit.
std::vector<float> random_sparse_unit_matrix(long long rows, long long cols, std::uint64_t seed,
                                             unsigned one_in = 64);

}  // namespace harness
