// Runs the threads of one block on the calling OS thread as cooperating fibers.
//
// The threads run one after another, each until it finishes or reaches __syncthreads(); a thread
// that finishes hands its fiber (and stack) to the next, so a kernel without barriers costs one
// function call per thread. When every thread waits at the barrier (or has finished), the
// barrier is checked and released: all threads must wait at the same __syncthreads() and none
// may have finished, else the block fails with a message that says where. The order in which
// threads run, at the start and after each barrier, is the schedule's.
#pragma once

#include <setjmp.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#include "emu/control.hpp"
#include "emu/launch.hpp"
#include "stack.hpp"

namespace emu::detail {

struct BlockFailure {
  cudaError_t error;
  std::string message;
};

// One launch as the blocks see it.
struct BlockJob {
  const LaunchRequest* request;
  Schedule schedule;
  std::uint64_t seed;  // already mixed with the launch number
};

class BlockRunner {
 public:
  // The runner of the calling OS thread (created on first use).
  static BlockRunner& for_this_thread();
  // The runner whose block is running on this OS thread, or null outside kernels.
  static BlockRunner* active();

  // Runs block `block` of the job; `static_shared_bytes` gets the __shared__ bytes it declared.
  std::optional<BlockFailure> run(const BlockJob& job, uint3 block, long long& static_shared_bytes);

  // From kernel code.
  void barrier(const char* file, int line);
  int barrier_reduce(int predicate, int mode, const char* file, int line);
  void note_shared(const void* address, std::size_t bytes);
  // From the fault handler: leaves the block (does not return) when a kernel is running.
  [[noreturn]] void fault(int signal, const void* address);
  bool in_kernel() const { return in_kernel_; }

 private:
  struct Fiber {
    boost::context::detail::fcontext_t context = nullptr;
    Stack* stack = nullptr;
    unsigned thread = 0;         // linear index of the thread it runs
    const char* file = nullptr;  // the barrier it waits at
    int line = 0;
  };
  enum class Yield : std::uintptr_t { barrier = 1, finished = 2 };

  BlockRunner() = default;
  static void fiber_main(boost::context::detail::transfer_t transfer);
  [[noreturn]] void fiber_loop();
  Fiber* new_fiber();
  void release(Fiber* fiber);
  Yield resume(Fiber* fiber);
  void set_thread_index(unsigned thread) const;
  void shuffle(std::vector<Fiber*>& fibers, std::uint64_t round) const;
  std::optional<BlockFailure> check_barrier(const std::vector<Fiber*>& waiting) const;
  std::string where() const;  // "block (1, 0, 0) of MatrixMulKernel (kernel.cu:33)"
  void abandon_fibers();

  std::vector<std::unique_ptr<Stack>> stacks_;
  std::vector<Stack*> free_stacks_;
  std::vector<std::unique_ptr<Fiber>> fibers_;  // every fiber object ever made, reused
  std::vector<Fiber*> free_fibers_;
  std::vector<Fiber*> in_use_;
  std::vector<Fiber*> waiting_;  // at the barrier, in the order they will be resumed
  std::vector<Fiber*> next_;

  // The block being run.
  const BlockJob* job_ = nullptr;
  uint3 block_{0, 0, 0};
  unsigned threads_ = 0;
  std::vector<unsigned> order_;  // the order threads start in
  unsigned next_start_ = 0;      // index into order_
  unsigned finished_ = 0;
  Fiber* current_ = nullptr;
  boost::context::detail::fcontext_t scheduler_ = nullptr;
  std::vector<std::pair<const void*, std::size_t>> shared_;
  int reduce_sum_ = 0;
  int reduce_result_ = 0;

  // Faults: the handler jumps back into run().
  sigjmp_buf fault_jump_;
  volatile bool in_kernel_ = false;
  int fault_signal_ = 0;
  const void* fault_address_ = nullptr;
  unsigned fault_thread_ = 0;
  bool fault_in_stack_guard_ = false;
};

// Installs the SIGSEGV/SIGBUS/SIGFPE handlers once, and an alternate signal stack for the
// calling thread (so that a stack overflow can be reported too).
void prepare_fault_handling();

}  // namespace emu::detail
