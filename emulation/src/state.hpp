// The emulator's process-wide state: errors as CUDA reports them, the settings and the launch
// recorder. Internal to the runtime.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "emu/access.hpp"
#include "emu/control.hpp"
#include "emu/types.hpp"

namespace emu::detail {

// CUDA's error model: a bad launch configuration or a failed call is the calling thread's "last
// error" (cudaGetLastError returns and clears it); a fault while a kernel runs is found at the
// next synchronizing call and is sticky: every later call returns it, as after a GPU fault the
// context is unusable. The emulator runs kernels at their launch, so a fault is kept pending until
// the program next calls the runtime, and cudaGetLastError right after a launch still says
// success, as it does on a GPU.
class Errors {
 public:
  static Errors& get();

  // Records a failed call's error as the last error and returns it (success passes through).
  cudaError_t set(cudaError_t error);
  // A fault found while a kernel ran: pending until the next runtime call, then sticky.
  void fault(cudaError_t error);
  // The emulator's explanation of the latest `error`, which cudaGetErrorString appends.
  void explain(cudaError_t error, const std::string& detail);
  // Called at the start of every runtime call except cudaGetLastError/cudaPeekAtLastError:
  // makes a pending fault sticky; returns the sticky error (cudaSuccess when there is none).
  cudaError_t surface();
  cudaError_t sticky() const;
  cudaError_t take_last();
  cudaError_t peek_last();
  void reset();  // cudaDeviceReset

  // The text for cudaGetErrorString: CUDA's, plus the emulator's explanation when it has one.
  const char* describe(cudaError_t error);

 private:
  mutable std::mutex mutex_;
  cudaError_t pending_ = cudaSuccess;
  cudaError_t sticky_ = cudaSuccess;
};

// The value of emu::fill_static_shared (control.hpp), read by every block runner.
std::optional<float> static_shared_fill();

const char* error_name(cudaError_t error);
const char* error_text(cudaError_t error);

// Launch recording (see control.hpp).
class Recorder {
 public:
  static Recorder& get();
  void start();
  Recording stop();
  void add_launch(LaunchRecord record);
  void add_copy(const void* destination, const void* source, std::size_t bytes);

 private:
  std::mutex mutex_;
  bool active_ = false;
  Recording recording_;
};

// Largest dynamic shared memory a launch may ask for (48 KiB unless raised with
// cudaFuncSetAttribute, up to the H100's 227 KiB).
constexpr std::size_t kDefaultDynamicShared = 48 * 1024;
constexpr std::size_t kMaxDynamicShared = 227 * 1024;
std::size_t dynamic_shared_limit();
void set_dynamic_shared_limit(std::size_t bytes);

// Launches are numbered (each gets its own schedule); configure() starts again from 0.
void reset_launch_count();

// The buffers a launch checks accesses against (emu/access.hpp), copied when it starts.
struct CheckedRegions {
  std::vector<CheckedRegion> regions;
  std::deque<std::string> names;  // the regions' names and element words point here
};
void snapshot_checked_regions(CheckedRegions& out);

// Whether a pointer lies inside memory the runtime allocated.
bool is_runtime_memory(const void* pointer);
// While one lives, adopted device memory (emu/control.hpp) is accessible: around kernels and
// runtime copies.
struct DeviceMemoryAccess {
  DeviceMemoryAccess();
  ~DeviceMemoryAccess();
  DeviceMemoryAccess(const DeviceMemoryAccess&) = delete;
  DeviceMemoryAccess& operator=(const DeviceMemoryAccess&) = delete;
};
// Why a copy between adopted device memory and host memory is refused, or null.
const char* refused_copy(void* destination, const void* source, std::size_t bytes);
// The allocation's first byte and size when `pointer` is inside one, for messages.
std::optional<std::pair<const void*, std::size_t>> allocation_of(const void* pointer);

}  // namespace emu::detail
