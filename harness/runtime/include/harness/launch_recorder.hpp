// Sees what a student's launcher actually ran on the GPU: every kernel with its grid, block and
// resources, and every copy of the lab's buffers. On a GPU these are the launches the lab program
// replayed for the launcher (harness/student_call.hpp); under the CPU emulation, the emulator's
// record. Structural checks read the launch shape instead of searching the source text.
#pragma once

#include <string>
#include <vector>

#include "harness/contract.hpp"
#include "harness/occupancy.hpp"

namespace harness {

struct KernelLaunch {
  std::string name;  // demangled
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  int registers_per_thread = 0;
  long long static_shared_bytes = 0;
  long long dynamic_shared_bytes = 0;
  long long local_bytes_per_thread = 0;  // local memory: spilled registers or local arrays
  long long threads() const {
    return 1LL * grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
  }
  long long blocks() const { return 1LL * grid[0] * grid[1] * grid[2]; }
};

struct RecordedActivity {
  std::vector<KernelLaunch> kernels;
  int memory_copies = 0;  // cudaMemcpy* of any direction
};

// Records between construction and stop(). One recorder at a time in a process.
class LaunchRecorder {
 public:
  LaunchRecorder();
  ~LaunchRecorder();
  LaunchRecorder(const LaunchRecorder&) = delete;
  LaunchRecorder& operator=(const LaunchRecorder&) = delete;

  // Empty when recording works; otherwise why not (e.g. another profiler holds CUPTI).
  const std::string& unavailable_reason() const { return unavailable_; }
  // Waits for the GPU, collects the records and stops recording.
  RecordedActivity stop();

 private:
  std::string unavailable_;
  bool stopped_ = false;
  void* observer_ = nullptr;  // the backend's collector
};

// The device's limits for theoretical occupancy (current device).
SmLimits current_sm_limits();

// Each distinct kernel of `activity` (by name, the first launch of each) as facts for the record,
// with its theoretical occupancy on the current device.
std::vector<KernelFacts> kernel_facts(const RecordedActivity& activity);

// "k(float const*, float*): grid (8, 8, 1) x block (32, 32, 1)": the kernel and its shape, for
// messages.
std::string describe_launch(const KernelLaunch& launch);

}  // namespace harness
