#include "harness/launch_recorder.hpp"

#include <cxxabi.h>

#include <algorithm>

#include <cstdlib>
#include <memory>
#include <mutex>

#include <cupti.h>
#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/occupancy.hpp"
#include "harness/record.hpp"

namespace harness {
namespace {

constexpr std::size_t kBufferBytes = 1 << 20;
constexpr std::size_t kAlignment = 8;

std::mutex collected_mutex;
RecordedActivity collected;

std::string demangle(const char* name) {
  if (!name) return "(unnamed kernel)";
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(name);
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_size) {
  CUpti_Activity* record = nullptr;
  std::lock_guard lock(collected_mutex);
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      KernelLaunch launch;
      launch.name = demangle(kernel->name);
      launch.grid[0] = kernel->gridX;
      launch.grid[1] = kernel->gridY;
      launch.grid[2] = kernel->gridZ;
      launch.block[0] = kernel->blockX;
      launch.block[1] = kernel->blockY;
      launch.block[2] = kernel->blockZ;
      launch.registers_per_thread = kernel->registersPerThread;
      launch.static_shared_bytes = kernel->staticSharedMemory;
      launch.dynamic_shared_bytes = kernel->dynamicSharedMemory;
      launch.local_bytes_per_thread = kernel->localMemoryPerThread;
      collected.kernels.push_back(launch);
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      ++collected.memory_copies;
    }
  }
  std::free(buffer);
}

std::string cupti_error_text(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return text ? text : "unknown CUPTI error";
}

}  // namespace

LaunchRecorder::LaunchRecorder() {
  {
    std::lock_guard lock(collected_mutex);
    collected = {};
  }
  // Make sure the context exists and earlier work is finished, so only what follows is seen.
  CUDA_CHECK(cudaDeviceSynchronize());
  for (CUptiResult result : {cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed),
                             cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
                             cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY)}) {
    if (result != CUPTI_SUCCESS && unavailable_.empty()) {
      unavailable_ = "cannot observe kernel launches (CUPTI: " + cupti_error_text(result) +
                     "); is a profiler or sanitizer attached?";
    }
  }
}

LaunchRecorder::~LaunchRecorder() {
  if (!stopped_) {
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  }
}

RecordedActivity LaunchRecorder::stop() {
  CUDA_CHECK(cudaDeviceSynchronize());
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  stopped_ = true;
  std::lock_guard lock(collected_mutex);
  return std::exchange(collected, {});
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
