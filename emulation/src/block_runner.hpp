// Runs the threads of one block on the calling OS thread as cooperating fibers.
//
// The threads run one after another, each until it finishes, reaches __syncthreads() or calls a
// warp function; a thread that finishes hands its fiber (and stack) to the next, so a kernel
// without barriers or warp functions costs one function call per thread. A warp function is a
// rendezvous of the lanes its mask names (warp_rendezvous.cpp): when the last of them arrives,
// each gets its result and they are ready to run again, before any thread not yet started. When
// no thread can run, waiting __activemask() calls are answered; then, if lanes still wait at a
// warp function, the block fails with a message that says which lanes never came; else every
// thread waits at the barrier (or has finished), and the barrier is checked and released: all
// threads must wait at the same __syncthreads() and none may have finished, else the block fails.
// The order in which threads run (at the start, after each barrier and after each warp
// function) is the schedule's.
#pragma once

#include <setjmp.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

#include "access_profile.hpp"
#include "emu/access.hpp"
#include "emu/control.hpp"
#include "emu/launch.hpp"
#include "emu/warp.hpp"
#include "shared_initcheck.hpp"
#include "shared_race_check.hpp"
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
  std::uint64_t seed;        // already mixed with the launch number
  std::uint64_t number = 0;  // the launch's
  // The buffers accesses are checked against (emu/access.hpp), for the launch's whole run.
  const CheckedRegion* regions = nullptr;
  std::size_t region_count = 0;
  bool race_check = true;              // shared_race_check.hpp
  LaunchEvidence* evidence = nullptr;  // evidence.hpp; null: none gathered
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
  std::uint64_t warp_collective(const WarpCall& call);
  void note_shared(const void* address, std::size_t bytes);
  // From the fault handler: leaves the block (does not return) when a kernel is running.
  [[noreturn]] void fault(int signal, const void* address);
  bool in_kernel() const { return in_kernel_; }
  // For the bounds checks' reports (access_check.cpp).
  std::uint64_t launch_number() const { return job_->number; }
  std::uint64_t block_linear() const;
  const char* kernel_name() const { return job_->request->site.name; }
  // For the race check (shared_race_check.hpp): the block's, and the running thread.
  SharedRaceCheck& race_check() { return race_check_; }
  unsigned current_thread() const { return current_->thread; }
  // For the evidence engine (evidence.hpp, block_evidence.cpp).
  LaunchEvidence* evidence() const { return job_->evidence; }
  AccessProfile& profile() { return profile_; }
  SharedInitCheck& initcheck() { return initcheck_; }

 private:
  enum class Wait : std::uint8_t { none, barrier, warp };
  struct Fiber {
    boost::context::detail::fcontext_t context = nullptr;
    Stack* stack = nullptr;
    unsigned thread = 0;         // linear index of the thread it runs
    const char* file = nullptr;  // the barrier it waits at
    int line = 0;
    Wait wait = Wait::none;
    WarpCall call{};           // the warp function it waits at
    std::uint64_t result = 0;  // and that function's result, once complete
  };
  enum class Yield : std::uintptr_t { barrier = 1, finished = 2, warp = 3 };
  struct WarpLanes {
    unsigned waiting = 0;  // lanes waiting at a warp function (not __activemask)
    unsigned exited = 0;   // lanes whose thread has returned
  };

  BlockRunner() = default;
  static void fiber_main(boost::context::detail::transfer_t transfer);
  [[noreturn]] void fiber_loop();
  Fiber* new_fiber();
  void release(Fiber* fiber);
  Yield resume(Fiber* fiber);
  void set_thread_index(unsigned thread) const;
  void shuffle(std::vector<Fiber*>& fibers, std::uint64_t round) const;
  std::optional<BlockFailure> check_barrier(const std::vector<Fiber*>& waiting) const;
  BlockFailure fault_failure() const;                  // after a fault in the block's kernel code
  void begin_block(const BlockJob& job, uint3 block);  // every member a run reads, reset
  void start_order();                                  // order_, as the schedule has it
  std::string where() const;  // "block (1, 0, 0) of MatrixMulKernel (kernel.cu:33)"
  void abandon_fibers();
  // Resumes ready fibers, then starts new threads, until none can run (or a warp error).
  void run_until_blocked();
  // Ends the race check's and the initcheck's barrier interval (a barrier passed, or the end).
  void end_race_interval();
  // The block's checks and evidence (block_evidence.cpp): which watch it, what its threads wrote.
  void start_checks();
  AccessBounds bounds_for_block() const;
  void flush_writes(unsigned thread) {
    if (!access_bounds.wrote) return;
    access_bounds.wrote = false;
    if (!thread_wrote_[thread]) {
      thread_wrote_[thread] = 1;
      ++threads_wrote_;
    }
  }
  void end_block_evidence();

  // Warp rendezvous (warp_rendezvous.cpp).
  void arrive(Fiber* fiber);                    // a lane yielded at a warp function
  void complete(unsigned warp, unsigned lead);  // every lane of lead's mask has arrived
  void make_ready(std::vector<Fiber*>& group);  // in the schedule's order
  void answer_activemask();
  std::optional<BlockFailure> stuck_warp_failure() const;
  // "__shfl_sync at kernel.cu:27 in warp 1 of block (3, 0, 0) of ..."
  std::string warp_where(const Fiber& fiber) const;
  std::string absent_lanes(const Fiber& lead) const;  // why lanes of lead's mask are not with it
  unsigned lanes_in_warp(unsigned warp) const;
  Fiber* lane_fiber(unsigned warp, unsigned lane) const { return lane_fibers_[warp * 32 + lane]; }

  std::vector<std::unique_ptr<Stack>> stacks_;
  std::vector<Stack*> free_stacks_;
  std::vector<std::unique_ptr<Fiber>> fibers_;  // every fiber object ever made, reused
  std::vector<Fiber*> free_fibers_;
  std::vector<Fiber*> in_use_;
  std::vector<Fiber*> waiting_;  // at the barrier, in the order they will be resumed
  std::vector<Fiber*> ready_;    // to resume, from ready_next_ on
  std::size_t ready_next_ = 0;
  std::vector<Fiber*> group_;        // scratch for a completed warp function's lanes
  std::vector<Fiber*> lane_fibers_;  // by linear thread index: its fiber while it runs
  std::vector<WarpLanes> warps_;
  std::vector<Fiber*> activemask_waiting_;
  unsigned warp_waiters_ = 0;  // fibers waiting at warp functions (not __activemask)
  std::uint64_t barrier_round_ = 0;
  std::uint64_t warp_releases_ = 0;  // seeds the random order of each released group
  std::optional<BlockFailure> failure_;

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
  SharedRaceCheck race_check_;
  AccessProfile profile_;
  SharedInitCheck initcheck_;
  std::vector<unsigned char> thread_wrote_;  // per thread: it wrote global memory
  unsigned threads_wrote_ = 0;

  // Faults: the handler jumps back into run().
  sigjmp_buf fault_jump_;
  volatile bool in_kernel_ = false;
  int fault_signal_ = 0;
  const void* fault_address_ = nullptr;
  unsigned fault_thread_ = 0;
  bool fault_in_stack_guard_ = false;
};

// "kernel.cu" for "/path/to/kernel.cu": what messages name.
std::string short_file(const char* file);

// Installs the SIGSEGV/SIGBUS/SIGFPE handlers once, and an alternate signal stack for the
// calling thread (so that a stack overflow can be reported too).
void prepare_fault_handling();

}  // namespace emu::detail
