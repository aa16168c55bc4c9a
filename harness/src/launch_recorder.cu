#include "harness/launch_recorder.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/occupancy.hpp"
#include "student/student_runtime.hpp"

namespace harness {

// What the lab program itself launched for the student's launcher (student_runtime.cpp): the
// shapes and resources are facts of the replay, not anything the student's process says.
LaunchRecorder::LaunchRecorder() : observer_(new student::LaunchObserver) {
  student::Runtime::get().add_observer(static_cast<student::LaunchObserver*>(observer_));
}

LaunchRecorder::~LaunchRecorder() {
  auto* observer = static_cast<student::LaunchObserver*>(observer_);
  if (!stopped_) student::Runtime::get().remove_observer(observer);
  delete observer;
}

RecordedActivity LaunchRecorder::stop() {
  auto* observer = static_cast<student::LaunchObserver*>(observer_);
  if (!stopped_) student::Runtime::get().remove_observer(observer);
  stopped_ = true;
  RecordedActivity activity;
  activity.kernels = std::move(observer->kernels);
  activity.memory_copies = observer->memory_copies;
  *observer = {};
  return activity;
}

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

std::string describe_launch(const KernelLaunch& launch) {
  return fmt::format("{}: grid ({}, {}, {}) x block ({}, {}, {})", launch.name, launch.grid[0],
                     launch.grid[1], launch.grid[2], launch.block[0], launch.block[1],
                     launch.block[2]);
}

}  // namespace harness
