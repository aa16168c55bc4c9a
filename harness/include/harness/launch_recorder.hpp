// Sees what a student's launcher actually ran on the GPU: every kernel with its grid, block and
// resources, and every memory copy. Built on CUPTI's activity records, which the driver fills in
// for each kernel however it was launched, so structural checks read the launch shape instead of
// searching the source text.
#pragma once

#include <string>
#include <vector>

namespace harness {

struct KernelLaunch {
  std::string name;  // demangled
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  int registers_per_thread = 0;
  long long static_shared_bytes = 0;
  long long dynamic_shared_bytes = 0;
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
};

// "grid (8, 8, 1) x block (32, 32, 1)": for messages.
std::string describe_launch(const KernelLaunch& launch);

}  // namespace harness
