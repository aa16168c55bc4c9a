// Who may use a GPU when. Correctness and structure runs time nothing, so several may share a GPU;
// a speed run needs it alone, or another process's kernels would slow the kernels it times. The
// gate is kept by the grader, outside the sandboxes: a submission cannot skip it.
//
// Waiting shared users go first. A correctness run is mostly host work (start-up, inputs,
// comparisons) and overlaps well with other correctness runs, but not at all with a speed run.
// Letting speed runs cut in (as the gate first did) admitted correctness runs one or two at a
// time between them, so the GPU spent as long on them as on the speed runs; now the correctness
// runs of a batch overlap one another, and the speed runs follow back to back. A batch's
// correctness runs are finite, so a speed run waits at most until they are done.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

namespace batch {

class GpuGate {
 public:
  explicit GpuGate(int max_shared) : max_shared_(max_shared < 1 ? 1 : max_shared) {}

  // Shared use (up to max_shared at once, never during exclusive use); waiting shared users go
  // before waiting exclusive ones.
  void lock_shared();
  void unlock_shared();
  void lock();  // exclusive
  void unlock();

  // A speed run's program may start before its turn (RunRequest::take_turn), while another run
  // times, so that the GPU held alone is spent timing rather than starting; but each one
  // waiting holds CUDA contexts, so only a few per GPU (the timing one included) start ahead.
  static constexpr int kHeadStarts = 3;
  void lock_head_start();
  void unlock_head_start();

  int waiting() const;  // users waiting or running, for choosing the least busy GPU
  // Counts a user that has chosen this GPU and is about to lock it, so that callers choosing at
  // the same moment spread over the GPUs instead of all picking the one that looked idle; the
  // next lock or lock_shared takes the reservation over.
  void reserve();

 private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  int max_shared_;
  int shared_ = 0;
  bool exclusive_ = false;
  int shared_waiting_ = 0;
  int queued_ = 0;
  int reserved_ = 0;
  int head_starts_ = 0;
};

class SharedUse {
 public:
  explicit SharedUse(GpuGate& gate) : gate_(gate) { gate_.lock_shared(); }
  ~SharedUse() { gate_.unlock_shared(); }
  SharedUse(const SharedUse&) = delete;
  SharedUse& operator=(const SharedUse&) = delete;

 private:
  GpuGate& gate_;
};

class ExclusiveUse {
 public:
  explicit ExclusiveUse(GpuGate& gate) : gate_(gate) { gate_.lock(); }
  ~ExclusiveUse() { gate_.unlock(); }
  ExclusiveUse(const ExclusiveUse&) = delete;
  ExclusiveUse& operator=(const ExclusiveUse&) = delete;

 private:
  GpuGate& gate_;
};

class HeadStart {
 public:
  explicit HeadStart(GpuGate& gate) : gate_(gate) { gate_.lock_head_start(); }
  ~HeadStart() { gate_.unlock_head_start(); }
  HeadStart(const HeadStart&) = delete;
  HeadStart& operator=(const HeadStart&) = delete;

 private:
  GpuGate& gate_;
};

// The GPUs a batch may use (CUDA device numbers), each with its gate.
class GpuPool {
 public:
  GpuPool(std::vector<int> devices, int max_shared_per_gpu);
  // The device number and gate of the least busy GPU, reserved for the caller (GpuGate::reserve):
  // lock it next.
  std::pair<int, GpuGate*> least_busy();
  std::size_t size() const { return devices_.size(); }

 private:
  std::mutex mutex_;
  std::vector<int> devices_;
  std::vector<std::unique_ptr<GpuGate>> gates_;
};

}  // namespace batch
