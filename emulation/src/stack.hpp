// Fiber stacks: mapped memory with an inaccessible page below, so a kernel that overflows its
// stack faults (and is reported) instead of writing over another thread's stack.
#pragma once

#include <cstddef>

namespace emu::detail {

class Stack {
 public:
  explicit Stack(std::size_t bytes);
  ~Stack();
  Stack(const Stack&) = delete;
  Stack& operator=(const Stack&) = delete;

  void* top() const { return base_ + total_; }  // stacks grow down
  std::size_t size() const { return total_ - guard_; }
  bool guard_contains(const void* address) const {
    const char* p = static_cast<const char*>(address);
    return p >= base_ && p < base_ + guard_;
  }

 private:
  char* base_ = nullptr;
  std::size_t total_ = 0;
  std::size_t guard_ = 0;
};

// Bytes of stack per emulated thread: LABS_EMU_STACK_KIB, 128 KiB by default.
std::size_t fiber_stack_bytes();

}  // namespace emu::detail
