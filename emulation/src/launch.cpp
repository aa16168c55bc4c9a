// A launch: the configuration checked against an H100's limits (with CUDA's error codes), the
// blocks handed out to a pool of OS threads (one block at a time each), the first failure kept,
// and the launch recorded for the harness's structural checks.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "block_runner.hpp"
#include "emu/device.hpp"
#include "emu/launch.hpp"
#include "evidence.hpp"
#include "state.hpp"
#include "warp_ops.hpp"

namespace emu::detail {
namespace {

// OS threads that take blocks from a shared counter; the launching thread is one of them.
class WorkerPool {
 public:
  static WorkerPool& get() {
    static WorkerPool* pool = new WorkerPool();  // never destroyed: workers may outlive main()
    return *pool;
  }

  void run(int count, const std::function<void()>& work) {
    std::unique_lock lock(mutex_);
    while (static_cast<int>(workers_) < count - 1) {
      std::thread([this] { worker_main(); }).detach();
      ++workers_;
    }
    work_ = &work;
    wanted_ = count - 1;
    joined_ = 0;
    ++generation_;
    wake_.notify_all();
    lock.unlock();
    work();
    lock.lock();
    done_.wait(lock, [&] { return joined_ == wanted_ && running_ == 0; });
    work_ = nullptr;
  }

 private:
  void worker_main() {
    std::uint64_t seen = 0;
    std::unique_lock lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return generation_ != seen && joined_ < wanted_; });
      seen = generation_;
      ++joined_;
      ++running_;
      const auto* work = work_;
      lock.unlock();
      (*work)();
      lock.lock();
      --running_;
      done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  unsigned workers_ = 0;
  const std::function<void()>* work_ = nullptr;
  std::uint64_t generation_ = 0;
  int wanted_ = 0;
  int joined_ = 0;
  int running_ = 0;
};

std::string triple(const dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

std::string site_text(const KernelSite& site) {
  return std::string(site.name) + " (launched at " +
         std::filesystem::path(site.file ? site.file : "?").filename().string() + ":" +
         std::to_string(site.line) + ")";
}

// What cudaLaunchKernel would refuse, with CUDA's error code and the emulator's reason.
std::optional<BlockFailure> check_configuration(const LaunchRequest& r) {
  const dim3& g = r.grid;
  const dim3& b = r.block;
  const auto fail = [&](cudaError_t error, const std::string& why) {
    return BlockFailure{error, site_text(r.site) + " with grid " + triple(g) + " and block " +
                                   triple(b) + ": " + why};
  };
  if (g.x == 0 || g.y == 0 || g.z == 0) return fail(cudaErrorInvalidValue, "the grid is empty");
  if (b.x == 0 || b.y == 0 || b.z == 0) return fail(cudaErrorInvalidValue, "the block is empty");
  if (b.x > 1024 || b.y > 1024 || b.z > 64) {
    return fail(cudaErrorInvalidConfiguration, "a block is at most (1024, 1024, 64)");
  }
  if (1ULL * b.x * b.y * b.z > 1024) {
    return fail(cudaErrorInvalidConfiguration, "a block has at most 1024 threads");
  }
  if (g.x > 2147483647u || g.y > 65535 || g.z > 65535) {
    return fail(cudaErrorInvalidConfiguration, "a grid is at most (2147483647, 65535, 65535)");
  }
  if (r.dynamic_shared_bytes > dynamic_shared_limit()) {
    return fail(cudaErrorInvalidValue, std::to_string(r.dynamic_shared_bytes) +
                                           " bytes of dynamic shared memory; at most " +
                                           std::to_string(dynamic_shared_limit()));
  }
  return std::nullopt;
}

std::atomic<std::uint64_t> launch_count{0};

// Runs `work` on `threads` OS threads (the calling one among them), the lab's buffers open.
void run_on_threads(int threads, const std::function<void()>& work) {
  const DeviceMemoryAccess access;  // the lab's buffers, open to kernels only
  if (threads <= 1) {
    work();
  } else {
    WorkerPool::get().run(threads, work);
  }
}

// What the blocks of a launch left: the most static shared memory a block had, and the failure
// of the first block that failed (by index), if any.
struct GridOutcome {
  long long static_shared = 0;
  std::optional<BlockFailure> failure;
};

// Runs every block of `grid` on up to `threads` OS threads; the first failure stops the others.
GridOutcome run_blocks(const BlockJob& job, const dim3& grid, int threads) {
  const std::uint64_t blocks = 1ULL * grid.x * grid.y * grid.z;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<bool> stop{false};
  std::atomic<long long> static_shared{0};
  std::mutex failure_mutex;
  std::optional<BlockFailure> failure;
  std::uint64_t failed_block = blocks;

  const std::function<void()> work = [&] {
    BlockRunner& runner = BlockRunner::for_this_thread();
    while (!stop.load(std::memory_order_relaxed)) {
      const std::uint64_t b = next_block.fetch_add(1, std::memory_order_relaxed);
      if (b >= blocks) break;
      const uint3 index{static_cast<unsigned>(b % grid.x),
                        static_cast<unsigned>(b / grid.x % grid.y),
                        static_cast<unsigned>(b / (1ULL * grid.x * grid.y))};
      long long shared = 0;
      auto result = runner.run(job, index, shared);
      long long seen = static_shared.load(std::memory_order_relaxed);
      while (shared > seen && !static_shared.compare_exchange_weak(seen, shared)) {
      }
      if (result) {
        std::lock_guard lock(failure_mutex);
        if (!failure || b < failed_block) {
          failure = std::move(result);
          failed_block = b;
        }
        stop = true;
      }
    }
  };
  run_on_threads(
      static_cast<int>(std::min<std::uint64_t>(blocks, static_cast<std::uint64_t>(threads))), work);
  return {static_shared.load(), std::move(failure)};
}

}  // namespace

// Same settings, same sequence of schedules: configure() starts the count again.
void reset_launch_count() { launch_count = 0; }

void launch(const LaunchRequest& request) {
  auto& errors = Errors::get();
  // After a fault the context is gone, as on a GPU: nothing runs any more.
  if (errors.surface() != cudaSuccess) return;
  if (const auto refused = check_configuration(request)) {
    errors.explain(refused->error, refused->message);
    errors.set(refused->error);
    Recorder::get().add_launch({request.site.name, request.grid, request.block, 0,
                                static_cast<long long>(request.dynamic_shared_bytes),
                                refused->error});
    return;
  }
  const Settings& settings = emu::settings();
  const std::uint64_t number = launch_count++;
  // Host code cannot allocate while the launch runs: the snapshot stays right for all of it.
  thread_local CheckedRegions checked;
  snapshot_checked_regions(checked);
  LaunchEvidence evidence(request, checked.regions.data(), checked.regions.size(),
                          settings.evidence);
  BlockJob job{&request,
               settings.schedule,
               settings.seed * 0x9E3779B97F4A7C15ULL + number,
               number,
               checked.regions.data(),
               checked.regions.size(),
               settings.race_check,
               settings.evidence ? &evidence : nullptr};

  const auto [static_shared, failure] =
      run_blocks(job, request.grid, std::max(1, settings.threads));

  Recorder::get().add_launch({request.site.name, request.grid, request.block, static_shared,
                              static_cast<long long>(request.dynamic_shared_bytes)});
  if (!failure) {
    evidence.finish();  // a launch cut short by a failure is evidence of nothing but the failure
    return;
  }
  std::fprintf(stderr, "emulation: %s: %s\n", error_name(failure->error), failure->message.c_str());
  std::fflush(stderr);
  errors.explain(failure->error, failure->message);
  errors.fault(failure->error);
}

void check_pointer_argument(const KernelSite& site, int position, const void* pointer) {
  if (!pointer || is_runtime_memory(pointer)) return;
  static std::mutex mutex;
  static std::set<std::tuple<const char*, int, int>> warned;
  std::lock_guard lock(mutex);
  if (!warned.insert({site.file, site.line, position}).second) return;
  std::fprintf(stderr,
               "emulation: warning: argument %d of %s is not memory from cudaMalloc (a host "
               "array?); on a GPU the kernel faults when it uses it\n",
               position, site_text(site).c_str());
}

void barrier(const char* file, int line) {
  if (BlockRunner* runner = BlockRunner::active()) runner->barrier(file, line);
}

int barrier_reduce(int predicate, int mode, const char* file, int line) {
  if (BlockRunner* runner = BlockRunner::active()) {
    return runner->barrier_reduce(predicate, mode, file, line);
  }
  return predicate;
}

std::uint64_t warp_collective(const WarpCall& call) {
  if (BlockRunner* runner = BlockRunner::active()) return runner->warp_collective(call);
  // Host code: a warp of one lane.
  if (call.op == WarpOp::activemask) return 1;
  WarpCalls calls{};
  calls[0] = &call;
  return warp_result(0, 1u, calls);
}

void note_shared(const void* address, std::size_t bytes) {
  if (BlockRunner* runner = BlockRunner::active()) runner->note_shared(address, bytes);
}

void* dynamic_shared_base() {
  // One buffer per OS thread, as large as any launch may ask for: its address never changes, so
  // `static thread_local T* const name = dynamic_shared<T>()` stays right for every block.
  thread_local std::unique_ptr<std::max_align_t[]> buffer(
      new std::max_align_t[kMaxDynamicShared / sizeof(std::max_align_t) + 1]);
  return buffer.get();
}

}  // namespace emu::detail
