// Registers, shared memory and occupancy of the kernels a check saw, from the GPU's compiled
// kernels and the device's limits.
#include "harness/launch_recorder.hpp"

#include <algorithm>

#include "harness/cuda_check.hpp"
#include "harness/occupancy.hpp"

namespace harness {

SmLimits current_sm_limits() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp p{};
  CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  SmLimits limits;
  limits.max_threads = p.maxThreadsPerMultiProcessor;
  limits.max_blocks = p.maxBlocksPerMultiProcessor;
  limits.registers = p.regsPerMultiprocessor;
  limits.shared_bytes = static_cast<long long>(p.sharedMemPerMultiprocessor);
  limits.reserved_shared = static_cast<long long>(p.reservedSharedMemPerBlock);
  limits.warp_size = p.warpSize;
  return limits;
}

std::vector<KernelFacts> kernel_facts(const RecordedActivity& activity) {
  std::vector<KernelFacts> facts;
  if (activity.kernels.empty()) return facts;
  const SmLimits limits = current_sm_limits();
  for (const auto& launch : activity.kernels) {
    const bool seen = std::any_of(facts.begin(), facts.end(),
                                  [&](const KernelFacts& f) { return f.name == launch.name; });
    if (seen) continue;
    KernelFacts f;
    f.name = launch.name;
    for (int i = 0; i < 3; ++i) {
      f.block[i] = launch.block[i];
      f.grid[i] = launch.grid[i];
    }
    f.registers_per_thread = launch.registers_per_thread;
    f.shared_bytes_per_block = launch.static_shared_bytes + launch.dynamic_shared_bytes;
    f.local_bytes_per_thread = launch.local_bytes_per_thread;
    read_kernel_facts(f, limits);
    facts.push_back(std::move(f));
  }
  return facts;
}

}  // namespace harness
