// The launch recorder of the CPU emulation (LABS_BACKEND=emulation): the emulator itself records
// every launch (grid, block, and the shared memory its __shared__ declarations and launch asked
// for) and every cudaMemcpy, where on a GPU CUPTI's activity records do (launch_recorder.cu).
// Registers are not known here and stay 0.
#include <cuda_runtime.h>

#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/launch_recorder.hpp"

namespace harness {

LaunchRecorder::LaunchRecorder() {
  CUDA_CHECK(cudaDeviceSynchronize());
  emu::start_recording();
}

LaunchRecorder::~LaunchRecorder() {
  if (!stopped_) emu::stop_recording();
}

RecordedActivity LaunchRecorder::stop() {
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto recording = emu::stop_recording();
  stopped_ = true;
  RecordedActivity activity;
  activity.memory_copies = recording.memory_copies;
  for (const auto& record : recording.launches) {
    KernelLaunch launch;
    launch.name = record.name;
    launch.grid[0] = record.grid.x;
    launch.grid[1] = record.grid.y;
    launch.grid[2] = record.grid.z;
    launch.block[0] = record.block.x;
    launch.block[1] = record.block.y;
    launch.block[2] = record.block.z;
    launch.static_shared_bytes = record.static_shared_bytes;
    launch.dynamic_shared_bytes = record.dynamic_shared_bytes;
    activity.kernels.push_back(launch);
  }
  return activity;
}

// Registers, spills and occupancy come from the GPU's compiled kernels: the CPU has none to report.
std::vector<KernelFacts> kernel_facts(const RecordedActivity&) { return {}; }

std::string describe_launch(const KernelLaunch& launch) {
  return fmt::format("{}: grid ({}, {}, {}) x block ({}, {}, {})", launch.name, launch.grid[0],
                     launch.grid[1], launch.grid[2], launch.block[0], launch.block[1],
                     launch.block[2]);
}

}  // namespace harness
