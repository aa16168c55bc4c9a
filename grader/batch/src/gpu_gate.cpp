#include "batch/gpu_gate.hpp"

#include <memory>

namespace batch {

void GpuGate::lock_shared() {
  std::unique_lock lock(mutex_);
  if (reserved_ > 0) --reserved_;
  ++queued_;
  ++shared_waiting_;
  changed_.wait(lock, [&] { return !exclusive_ && shared_ < max_shared_; });
  --shared_waiting_;
  ++shared_;
}

void GpuGate::unlock_shared() {
  {
    std::lock_guard lock(mutex_);
    --shared_;
    --queued_;
  }
  changed_.notify_all();
}

void GpuGate::lock() {
  std::unique_lock lock(mutex_);
  if (reserved_ > 0) --reserved_;
  ++queued_;
  changed_.wait(lock, [&] { return !exclusive_ && shared_ == 0 && shared_waiting_ == 0; });
  exclusive_ = true;
}

void GpuGate::unlock() {
  {
    std::lock_guard lock(mutex_);
    exclusive_ = false;
    --queued_;
  }
  changed_.notify_all();
}

void GpuGate::lock_head_start() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return head_starts_ < kHeadStarts; });
  ++head_starts_;
}

void GpuGate::unlock_head_start() {
  {
    std::lock_guard lock(mutex_);
    --head_starts_;
  }
  changed_.notify_all();
}

int GpuGate::waiting() const {
  std::lock_guard lock(mutex_);
  return queued_ + reserved_;
}

void GpuGate::reserve() {
  std::lock_guard lock(mutex_);
  ++reserved_;
}

GpuPool::GpuPool(std::vector<int> devices, int max_shared_per_gpu) : devices_(std::move(devices)) {
  if (devices_.empty()) devices_.push_back(0);
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    gates_.push_back(std::make_unique<GpuGate>(max_shared_per_gpu));
  }
}

std::pair<int, GpuGate*> GpuPool::least_busy() {
  std::lock_guard lock(mutex_);
  std::size_t best = 0;
  for (std::size_t i = 1; i < gates_.size(); ++i) {
    if (gates_[i]->waiting() < gates_[best]->waiting()) best = i;
  }
  gates_[best]->reserve();
  return {devices_[best], gates_[best].get()};
}

}  // namespace batch
