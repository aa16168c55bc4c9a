// Theoretical occupancy from a kernel's resources and the device's limits: the same arithmetic as
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, done on the host from what CUPTI recorded about a
// launch (the harness has no function pointer to the student's kernel). Host-only, unit-tested.
#pragma once

#include <string>

#include "harness/contract.hpp"

namespace harness {

struct SmLimits {
  int max_threads = 2048;            // per multiprocessor
  int max_blocks = 32;               // per multiprocessor
  int registers = 65536;             // per multiprocessor
  long long shared_bytes = 233472;   // per multiprocessor (228 KiB on an H100)
  long long reserved_shared = 1024;  // the runtime's share of every block
  int warp_size = 32;
  int register_unit = 256;      // registers are given to warps in units of this
  long long shared_unit = 128;  // shared memory is given to blocks in units of this
};

struct Occupancy {
  int blocks_per_sm = 0;
  double share = 0;        // resident warps / the most the SM holds
  std::string limited_by;  // "block size", "threads", "registers", "shared memory", "blocks"
};

Occupancy theoretical_occupancy(const SmLimits& limits, int threads_per_block,
                                int registers_per_thread, long long shared_per_block);

// Fills the occupancy fields and the one-line reading of a kernel's facts.
void read_kernel_facts(KernelFacts& facts, const SmLimits& limits);

}  // namespace harness
