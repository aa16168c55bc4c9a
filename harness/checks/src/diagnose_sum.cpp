// The rule for a reduction (one output element made from one input: DiagnosisInput::reduced_input).
// A wrong sum that equals, exactly, the sum of a part of the input tells which part the kernel
// added: the first whole blocks only (a grid rounded down) or block 0's share (the other blocks'
// sums dropped). Exact cases only: within a tolerance many parts' sums would come close by chance,
// while on integer inputs an exact match is evidence.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include <fmt/format.h>

#include "diagnose_rules.hpp"

namespace harness::rules {
namespace {

// The block sizes worth trying: the recorded launch's first, then the usual powers of two.
std::vector<std::size_t> block_candidates(const std::optional<LaunchShape>& launch) {
  std::vector<std::size_t> blocks;
  if (launch) {
    blocks.push_back(std::size_t{launch->block[0]} * launch->block[1] * launch->block[2]);
  }
  for (const std::size_t b : {256, 128, 512, 1024, 64, 32}) {
    if (std::find(blocks.begin(), blocks.end(), b) == blocks.end()) blocks.push_back(b);
  }
  return blocks;
}

// Block 0's share of a grid-stride loop with the recorded grid: every grid * block elements,
// the first block of them. `prefix` holds the input's prefix sums.
template <class Matches>
std::optional<Diagnosis> from_grid_stride_share(const LaunchShape& launch,
                                                const std::vector<double>& prefix,
                                                std::size_t block, const Matches& matches) {
  const std::size_t n = prefix.size() - 1;
  const std::size_t grid = std::size_t{launch.grid[0]} * launch.grid[1] * launch.grid[2];
  if (grid <= 1 || block * grid >= n) return std::nullopt;
  double first_block = 0;
  for (std::size_t i = 0; i < n; i += block * grid) {
    first_block += prefix[std::min(n, i + block)] - prefix[i];
  }
  if (!matches(first_block)) return std::nullopt;
  return make_diagnosis(
      "one_block_sum",
      fmt::format("the sum is exactly that of the elements block 0 of {} reads in a grid-stride "
                  "loop of {} threads per block; the other blocks' sums are missing",
                  grid, block));
}

}  // namespace

std::optional<Diagnosis> from_partial_sums(const DiagnosisInput& in) {
  const Values x = in.reduced_input;
  if (x.empty() || in.got.size() != 1 || in.expected.size() != 1 || !in.tolerance.empty()) {
    return std::nullopt;
  }
  const float got = in.got[0];
  if (!std::isfinite(got) || got == 0.0f) return std::nullopt;  // 0: no evidence of a part
  const std::size_t n = x.size();
  std::vector<double> prefix(n + 1, 0.0);  // exact for the integer inputs of exact cases
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + x[i];
  const auto matches = [&](double part) { return close(got, part, {}, 0); };

  const auto blocks = block_candidates(in.launch);
  // A grid of n / block blocks, rounded down: the whole blocks' elements, not the rest. Not when
  // the recorded launch had a thread for every element: that grid was not too small (two blocks
  // whose plain adds to the output collide lose one block's sum the same way, a race).
  const bool launch_covers_input =
      in.launch && std::size_t{in.launch->grid[0]} * in.launch->grid[1] * in.launch->grid[2] *
                           in.launch->block[0] * in.launch->block[1] * in.launch->block[2] >=
                       n;
  for (const std::size_t block : launch_covers_input ? std::vector<std::size_t>{} : blocks) {
    const std::size_t whole = n / block * block;
    if (whole > 0 && whole < n && matches(prefix[whole])) {
      return make_diagnosis(
          "grid_too_small",
          fmt::format("the sum is exactly that of the first {} elements, {} whole blocks of {}: "
                      "the last {} were never added",
                      whole, whole / block, block, n - whole));
    }
  }
  // Block 0's share alone (only block 0 stored its sum): a block's elements, or two blocks' worth
  // when each thread adds two elements as it loads. Only block 0's: any wrong sum would match some
  // block's share by chance, and a last block to overwrite the output changes from run to run
  // (a race, named before this rule).
  for (const std::size_t block : blocks) {
    for (const std::size_t share : {block, 2 * block}) {
      if (share < n && matches(prefix[share])) {
        return make_diagnosis(
            "one_block_sum",
            fmt::format("the sum is exactly that of the first {} elements, block 0's share with {} "
                        "elements per block; the other blocks' sums are missing",
                        share, share));
      }
    }
  }
  if (in.launch) return from_grid_stride_share(*in.launch, prefix, blocks.front(), matches);
  return std::nullopt;
}

}  // namespace harness::rules
