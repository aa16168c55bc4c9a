#include "harness/occupancy.hpp"

#include <algorithm>
#include <climits>

#include <fmt/format.h>

namespace harness {
namespace {

long long round_up(long long value, long long unit) {
  return unit > 0 ? (value + unit - 1) / unit * unit : value;
}

}  // namespace

Occupancy theoretical_occupancy(const SmLimits& limits, int threads_per_block,
                                int registers_per_thread, long long shared_per_block) {
  Occupancy result;
  if (threads_per_block <= 0 || limits.warp_size <= 0 || limits.max_threads <= 0) return result;
  const long long warps_per_block = (threads_per_block + limits.warp_size - 1) / limits.warp_size;
  const long long max_warps = limits.max_threads / limits.warp_size;

  struct Limit {
    long long blocks;
    const char* name;
  };
  std::vector<Limit> caps{{limits.max_blocks, "blocks"}, {max_warps / warps_per_block, "threads"}};
  if (registers_per_thread > 0) {
    const long long per_warp =
        round_up(1LL * registers_per_thread * limits.warp_size, limits.register_unit);
    caps.push_back({limits.registers / (per_warp * warps_per_block), "registers"});
  }
  if (shared_per_block > 0) {
    const long long per_block =
        round_up(shared_per_block + limits.reserved_shared, limits.shared_unit);
    caps.push_back({limits.shared_bytes / per_block, "shared memory"});
  }
  const auto smallest = std::min_element(
      caps.begin(), caps.end(), [](const Limit& a, const Limit& b) { return a.blocks < b.blocks; });
  result.blocks_per_sm = static_cast<int>(std::max(0LL, smallest->blocks));
  result.share =
      static_cast<double>(result.blocks_per_sm * warps_per_block) / static_cast<double>(max_warps);
  result.limited_by = smallest->name;
  // A full SM is limited by nothing worth naming; a small block that caps the block count is
  // limited by its size.
  if (result.share >= 1.0)
    result.limited_by = "nothing (full occupancy)";
  else if (result.limited_by == std::string("blocks"))
    result.limited_by = "block size";
  return result;
}

void read_kernel_facts(KernelFacts& facts, const SmLimits& limits) {
  const long long threads = 1LL * facts.block[0] * facts.block[1] * facts.block[2];
  const auto occupancy =
      theoretical_occupancy(limits, static_cast<int>(std::min<long long>(threads, INT_MAX)),
                            facts.registers_per_thread, facts.shared_bytes_per_block);
  facts.occupancy = occupancy.share;
  facts.limited_by = occupancy.limited_by;
  std::string reading;
  const int percent = static_cast<int>(occupancy.share * 100 + 0.5);
  if (occupancy.blocks_per_sm == 0) {
    reading = "this block does not fit on a multiprocessor: the launch cannot run";
  } else if (occupancy.share >= 1.0) {
    reading = fmt::format("{} blocks of {} threads fill a multiprocessor: full occupancy",
                          occupancy.blocks_per_sm, threads);
  } else if (occupancy.limited_by == "registers") {
    reading = fmt::format("{} registers per thread limit occupancy to {}%",
                          facts.registers_per_thread, percent);
  } else if (occupancy.limited_by == "shared memory") {
    reading = fmt::format("{} bytes of shared memory per block limit occupancy to {}%",
                          facts.shared_bytes_per_block, percent);
  } else if (occupancy.limited_by == "block size") {
    reading = fmt::format(
        "blocks of {} threads are too small: at most {} blocks fit, {}% "
        "occupancy",
        threads, occupancy.blocks_per_sm, percent);
  } else {
    reading = fmt::format("{}% occupancy, limited by {}", percent, occupancy.limited_by);
  }
  if (facts.local_bytes_per_thread > 0) {
    reading += fmt::format(
        "; {} bytes of local memory per thread (spilled registers or a local "
        "array) go to slow memory",
        facts.local_bytes_per_thread);
  }
  facts.reading = reading;
}

}  // namespace harness
