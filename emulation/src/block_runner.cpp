#include "block_runner.hpp"

#include <signal.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <sstream>

#include "emu/device.hpp"
#include "state.hpp"

namespace emu::detail {
namespace bctx = boost::context::detail;
namespace {

thread_local BlockRunner* active_runner = nullptr;

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::string triple(unsigned x, unsigned y, unsigned z) {
  std::ostringstream out;
  out << "(" << x << ", " << y << ", " << z << ")";
  return out.str();
}

}  // namespace

std::string short_file(const char* file) {
  return file ? std::filesystem::path(file).filename().string() : std::string("?");
}

BlockRunner& BlockRunner::for_this_thread() {
  thread_local std::unique_ptr<BlockRunner> runner;
  if (!runner) {
    prepare_fault_handling();
    runner.reset(new BlockRunner());
  }
  return *runner;
}

BlockRunner* BlockRunner::active() { return active_runner; }

void BlockRunner::set_thread_index(unsigned thread) const {
  const dim3& b = job_->request->block;
  threadIdx.x = thread % b.x;
  threadIdx.y = (thread / b.x) % b.y;
  threadIdx.z = thread / (b.x * b.y);
}

BlockRunner::Fiber* BlockRunner::new_fiber() {
  if (free_stacks_.empty()) {
    stacks_.push_back(std::make_unique<Stack>(fiber_stack_bytes()));
    free_stacks_.push_back(stacks_.back().get());
  }
  if (free_fibers_.empty()) {
    fibers_.push_back(std::make_unique<Fiber>());
    free_fibers_.push_back(fibers_.back().get());
  }
  Fiber* fiber = free_fibers_.back();
  free_fibers_.pop_back();
  fiber->stack = free_stacks_.back();
  free_stacks_.pop_back();
  fiber->context = bctx::make_fcontext(fiber->stack->top(), fiber->stack->size(), &fiber_main);
  fiber->file = nullptr;
  in_use_.push_back(fiber);
  return fiber;
}

void BlockRunner::release(Fiber* fiber) {
  free_stacks_.push_back(fiber->stack);
  fiber->stack = nullptr;
  free_fibers_.push_back(fiber);
  in_use_.erase(std::find(in_use_.begin(), in_use_.end(), fiber));
}

// Fibers stopped by a failure are never resumed: their stacks are simply reused.
void BlockRunner::abandon_fibers() {
  while (!in_use_.empty()) release(in_use_.back());
}

void BlockRunner::fiber_main(bctx::transfer_t transfer) {
  auto* runner = static_cast<BlockRunner*>(transfer.data);
  runner->scheduler_ = transfer.fctx;
  runner->fiber_loop();
}

// Starts threads until one waits at a barrier or a warp function (this fiber then belongs to
// it) or none is left.
void BlockRunner::fiber_loop() {
  Fiber* self = current_;
  while (next_start_ < threads_) {
    const unsigned thread = order_[next_start_++];
    self->thread = thread;
    lane_fibers_[thread] = self;
    set_thread_index(thread);
    job_->request->run_thread(job_->request->context);
    flush_writes(thread);
    lane_fibers_[thread] = nullptr;
    warps_[thread / 32].exited |= 1u << (thread % 32);
    ++finished_;
  }
  bctx::jump_fcontext(scheduler_, reinterpret_cast<void*>(Yield::finished));
  __builtin_unreachable();  // a finished fiber is never resumed
}

BlockRunner::Yield BlockRunner::resume(Fiber* fiber) {
  current_ = fiber;
  in_kernel_ = true;
  const bctx::transfer_t transfer = bctx::jump_fcontext(fiber->context, this);
  in_kernel_ = false;
  flush_writes(fiber->thread);
  fiber->context = transfer.fctx;
  return static_cast<Yield>(reinterpret_cast<std::uintptr_t>(transfer.data));
}

void BlockRunner::barrier(const char* file, int line) {
  Fiber* self = current_;
  self->file = file;
  self->line = line;
  self->wait = Wait::barrier;
  const bctx::transfer_t transfer =
      bctx::jump_fcontext(scheduler_, reinterpret_cast<void*>(Yield::barrier));
  scheduler_ = transfer.fctx;
  self->wait = Wait::none;
}

std::uint64_t BlockRunner::warp_collective(const WarpCall& call) {
  Fiber* self = current_;
  self->call = call;
  self->file = call.file;
  self->line = call.line;
  self->wait = Wait::warp;
  const bctx::transfer_t transfer =
      bctx::jump_fcontext(scheduler_, reinterpret_cast<void*>(Yield::warp));
  scheduler_ = transfer.fctx;
  self->wait = Wait::none;
  return self->result;
}

int BlockRunner::barrier_reduce(int predicate, int mode, const char* file, int line) {
  reduce_sum_ += predicate;
  barrier(file, line);
  switch (mode) {
    case 1:
      return reduce_result_ == static_cast<int>(threads_);
    case 2:
      return reduce_result_ > 0;
    default:
      return reduce_result_;
  }
}

void BlockRunner::note_shared(const void* address, std::size_t bytes) {
  for (const auto& [seen, size] : shared_) {
    if (seen == address) return;
  }
  shared_.emplace_back(address, bytes);
  // The first thread of the block to reach the declaration: no thread has written it yet.
  if (const auto fill = static_shared_fill()) {
    auto* cells = static_cast<unsigned char*>(const_cast<void*>(address));
    for (std::size_t at = 0; at + sizeof(float) <= bytes; at += sizeof(float)) {
      std::memcpy(cells + at, &*fill, sizeof(float));
    }
  }
}

void BlockRunner::shuffle(std::vector<Fiber*>& fibers, std::uint64_t round) const {
  if (job_->schedule != Schedule::random) return;  // forward and reverse keep the start order
  const std::uint64_t linear =
      block_.x + static_cast<std::uint64_t>(job_->request->grid.x) *
                     (block_.y + static_cast<std::uint64_t>(job_->request->grid.y) * block_.z);
  std::uint64_t state = job_->seed ^ (linear * 0xD1B54A32D192ED03ULL) ^ (round << 48);
  for (std::size_t i = fibers.size(); i > 1; --i) {
    std::swap(fibers[i - 1], fibers[splitmix(state) % i]);
  }
}

// A completed warp function's lanes: lane order forward, backwards in reverse, shuffled (per
// launch, block and release) in random order.
void BlockRunner::make_ready(std::vector<Fiber*>& group) {
  if (job_->schedule == Schedule::reverse) std::reverse(group.begin(), group.end());
  if (job_->schedule == Schedule::random) {
    const std::uint64_t linear =
        block_.x + static_cast<std::uint64_t>(job_->request->grid.x) *
                       (block_.y + static_cast<std::uint64_t>(job_->request->grid.y) * block_.z);
    std::uint64_t salt = ++warp_releases_;
    std::uint64_t state = job_->seed ^ (linear * 0xD1B54A32D192ED03ULL) ^ splitmix(salt);
    for (std::size_t i = group.size(); i > 1; --i) {
      std::swap(group[i - 1], group[splitmix(state) % i]);
    }
  }
  ready_.insert(ready_.end(), group.begin(), group.end());
}

std::uint64_t BlockRunner::block_linear() const {
  const dim3& grid = job_->request->grid;
  return block_.x + static_cast<std::uint64_t>(grid.x) *
                        (block_.y + static_cast<std::uint64_t>(grid.y) * block_.z);
}

std::string BlockRunner::where() const {
  const auto& site = job_->request->site;
  return "block " + triple(block_.x, block_.y, block_.z) + " of " + site.name + " (launched at " +
         short_file(site.file) + ":" + std::to_string(site.line) + ")";
}

std::optional<BlockFailure> BlockRunner::check_barrier(const std::vector<Fiber*>& waiting) const {
  // The common case, cheaply: every thread waits at the same line and none has finished.
  const Fiber* first = waiting.front();
  const bool same_site = std::all_of(waiting.begin(), waiting.end(), [&](const Fiber* fiber) {
    return fiber->line == first->line &&
           (fiber->file == first->file || std::strcmp(fiber->file, first->file) == 0);
  });
  if (same_site && finished_ == 0) return std::nullopt;

  std::map<std::pair<std::string, int>, unsigned> sites;
  for (const Fiber* fiber : waiting) ++sites[{short_file(fiber->file), fiber->line}];
  std::ostringstream out;
  if (sites.size() > 1) {
    out << "the threads of " << where() << " wait at different __syncthreads() calls:";
    for (const auto& [site, count] : sites)
      out << " " << count << " at " << site.first << ":" << site.second << ";";
    out << " every thread of a block must reach the same __syncthreads() calls (on a GPU this "
           "hangs or gives wrong results)";
    return BlockFailure{cudaErrorLaunchFailure, out.str()};
  }
  if (finished_ > 0) {
    const auto& site = sites.begin()->first;
    out << "__syncthreads() at " << site.first << ":" << site.second << " was reached by "
        << waiting.size() << " of the " << threads_ << " threads of " << where() << "; the other "
        << finished_ << " had returned without reaching it. Every thread of a block must reach "
        << "the same __syncthreads() calls (on a GPU this hangs or gives wrong results): keep the "
        << "threads outside the matrix in the loop and guard only their loads and stores";
    return BlockFailure{cudaErrorLaunchFailure, out.str()};
  }
  return std::nullopt;
}

// Every member a block's run reads, set for `block` of `job`.
void BlockRunner::begin_block(const BlockJob& job, uint3 block) {
  job_ = &job;
  block_ = block;
  const dim3& b = job.request->block;
  threads_ = b.x * b.y * b.z;
  blockIdx = block;
  blockDim = b;
  gridDim = job.request->grid;
  next_start_ = 0;
  finished_ = 0;
  shared_.clear();
  reduce_sum_ = 0;
  reduce_result_ = 0;
  waiting_.clear();
  ready_.clear();
  ready_next_ = 0;
  lane_fibers_.assign(threads_, nullptr);
  warps_.assign((threads_ + 31) / 32, WarpLanes{});
  activemask_waiting_.clear();
  warp_waiters_ = 0;
  barrier_round_ = 0;
  warp_releases_ = 0;
  failure_.reset();
  start_checks();
  start_order();
}

std::optional<BlockFailure> BlockRunner::run(const BlockJob& job, uint3 block,
                                             long long& static_shared_bytes) {
  begin_block(job, block);

  BlockRunner* const previous = active_runner;
  active_runner = this;
  // The bounds checks' view of this block (bounds_for_block).
  const AccessBounds previous_bounds = access_bounds;
  access_bounds = bounds_for_block();
  struct Restore {
    BlockRunner* previous;
    AccessBounds bounds;
    ~Restore() {
      active_runner = previous;
      access_bounds = bounds;
    }
  } restore{previous, previous_bounds};

  if (sigsetjmp(fault_jump_, 1) != 0) {
    in_kernel_ = false;
    abandon_fibers();
    return fault_failure();
  }

  // Members, not locals: after a fault's siglongjmp, locals changed since sigsetjmp are
  // indeterminate.
  while (true) {
    run_until_blocked();
    if (!failure_ && !activemask_waiting_.empty()) {
      answer_activemask();
      continue;
    }
    if (!failure_ && warp_waiters_ > 0) failure_ = stuck_warp_failure();
    if (!failure_ && !waiting_.empty()) failure_ = check_barrier(waiting_);
    if (failure_) {
      abandon_fibers();
      return std::move(failure_);
    }
    end_race_interval();
    if (waiting_.empty()) break;
    reduce_result_ = std::exchange(reduce_sum_, 0);
    shuffle(waiting_, ++barrier_round_);
    ready_.swap(waiting_);
    ready_next_ = 0;
    waiting_.clear();
  }
  end_block_evidence();
  static_shared_bytes = 0;
  for (const auto& [address, bytes] : shared_) static_shared_bytes += static_cast<long long>(bytes);
  return std::nullopt;
}

// The order the block's threads start in: the schedule's.
void BlockRunner::start_order() {
  order_.resize(threads_);
  std::iota(order_.begin(), order_.end(), 0u);
  if (job_->schedule == Schedule::reverse) std::reverse(order_.begin(), order_.end());
  if (job_->schedule == Schedule::random) {
    std::uint64_t state = job_->seed ^ (block_linear() * 0xD1B54A32D192ED03ULL) ^ 0x5EEDULL;
    for (std::size_t i = order_.size(); i > 1; --i) {
      std::swap(order_[i - 1], order_[splitmix(state) % i]);
    }
  }
}

// The failure a fault caught in the block's kernel code is (after the handler's siglongjmp).
BlockFailure BlockRunner::fault_failure() const {
  const dim3& b = job_->request->block;
  std::ostringstream out;
  out << "thread "
      << triple(fault_thread_ % b.x, (fault_thread_ / b.x) % b.y, fault_thread_ / (b.x * b.y))
      << " of " << where();
  if (fault_in_stack_guard_) {
    out << " overflowed its stack (" << fiber_stack_bytes() / 1024
        << " KiB; a large local array or deep recursion? LABS_EMU_STACK_KIB sets the size)";
    return BlockFailure{cudaErrorIllegalAddress, out.str()};
  }
  if (fault_signal_ == SIGFPE) {
    out << " divided an integer by zero (a GPU does not trap, but the result is meaningless)";
    return BlockFailure{cudaErrorIllegalInstruction, out.str()};
  }
  out << " accessed address " << fault_address_
      << ", which is outside every cudaMalloc allocation: an index goes outside a matrix";
  return BlockFailure{cudaErrorIllegalAddress, out.str()};
}

void BlockRunner::run_until_blocked() {
  while (!failure_) {
    Fiber* fiber = nullptr;
    if (ready_next_ > 0 && ready_next_ == ready_.size()) {
      ready_.clear();
      ready_next_ = 0;
    }
    if (ready_next_ < ready_.size()) {
      fiber = ready_[ready_next_++];
      set_thread_index(fiber->thread);
    } else if (next_start_ < threads_) {
      fiber = new_fiber();
    } else {
      break;
    }
    switch (resume(fiber)) {
      case Yield::barrier:
        waiting_.push_back(fiber);
        break;
      case Yield::warp:
        arrive(fiber);
        break;
      case Yield::finished:
        release(fiber);
        break;
    }
  }
  ready_.clear();
  ready_next_ = 0;
}

void BlockRunner::fault(int signal, const void* address) {
  fault_signal_ = signal;
  fault_address_ = address;
  fault_thread_ = current_ ? current_->thread : 0;
  fault_in_stack_guard_ = current_ && current_->stack && current_->stack->guard_contains(address);
  siglongjmp(fault_jump_, 1);
}

}  // namespace emu::detail
