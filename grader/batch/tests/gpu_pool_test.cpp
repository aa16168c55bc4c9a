// How a batch spreads over several GPUs (labgrade batch --gpus 0,1): GpuPool::least_busy and the
// CUDA_VISIBLE_DEVICES a sandboxed program gets. No GPU needed: the gates are the grader's own.
#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "batch/gpu_gate.hpp"
#include "batch/visible_devices.hpp"

namespace batch {
namespace {

using namespace std::chrono_literals;

// Two workers choosing at the same moment, before either has locked: without the reservation both
// saw two idle GPUs and took the first, and one speed run waited while the other GPU idled.
TEST(GpuPool, CallersChoosingAtOnceGetDifferentGpus) {
  GpuPool pool({0, 1}, 4);
  auto [first, first_gate] = pool.least_busy();
  auto [second, second_gate] = pool.least_busy();
  EXPECT_NE(first, second);
  first_gate->lock();
  second_gate->lock();
  first_gate->unlock();
  second_gate->unlock();
}

// The speed phase of a batch: every run needs its GPU alone. Eight workers on two GPUs must use
// both GPUs at once, share the runs about evenly and never put two runs on one GPU.
TEST(GpuPool, ExclusiveRunsSpreadOverBothGpus) {
  GpuPool pool({0, 1}, 4);
  std::array<std::atomic<int>, 2> inside{};
  std::array<std::atomic<int>, 2> runs{};
  std::atomic<bool> overlap{false};
  std::atomic<bool> both_at_once{false};
  std::vector<std::thread> workers;
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&] {
      for (int job = 0; job < 12; ++job) {
        auto [device, gate] = pool.least_busy();
        ExclusiveUse alone(*gate);
        if (inside[device].fetch_add(1) != 0) overlap = true;
        if (inside[1 - device].load() > 0) both_at_once = true;
        ++runs[device];
        std::this_thread::sleep_for(1ms);
        inside[device].fetch_sub(1);
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_FALSE(overlap);
  EXPECT_TRUE(both_at_once);
  EXPECT_EQ(runs[0] + runs[1], 96);
  EXPECT_GE(runs[0], 96 / 4) << "GPU 0 ran " << runs[0] << " of 96";
  EXPECT_GE(runs[1], 96 / 4) << "GPU 1 ran " << runs[1] << " of 96";
}

// The correctness phase: up to max_shared runs per GPU, spread over both.
TEST(GpuPool, SharedRunsSpreadAndStayCapped) {
  GpuPool pool({4, 7}, 2);
  std::mutex mutex;
  std::map<int, int> inside, most, runs;
  std::vector<std::thread> workers;
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&] {
      for (int job = 0; job < 10; ++job) {
        auto [device, gate] = pool.least_busy();
        SharedUse shared(*gate);
        {
          std::lock_guard lock(mutex);
          most[device] = std::max(most[device], ++inside[device]);
          ++runs[device];
        }
        std::this_thread::sleep_for(1ms);
        std::lock_guard lock(mutex);
        --inside[device];
      }
    });
  }
  for (auto& worker : workers) worker.join();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_LE(most[4], 2);
  EXPECT_LE(most[7], 2);
  EXPECT_GE(runs[4], 20);
  EXPECT_GE(runs[7], 20);
}

TEST(VisibleDevices, WithoutAParentListTheNumberItself) {
  EXPECT_EQ(visible_device(0, nullptr), "0");
  EXPECT_EQ(visible_device(3, ""), "3");
}

// A Slurm job given the machine's GPUs 5 and 7 numbers them 0 and 1 in its own process.
TEST(VisibleDevices, IndexesTheGradersOwnList) {
  EXPECT_EQ(visible_device(0, "5,7"), "5");
  EXPECT_EQ(visible_device(1, "5,7"), "7");
  EXPECT_EQ(visible_device(0, "GPU-1a2b"), "GPU-1a2b");
  EXPECT_EQ(visible_device(1, "MIG-x,MIG-y"), "MIG-y");
}

TEST(VisibleDevices, PastTheListNoGpu) {
  EXPECT_EQ(visible_device(2, "5,7"), "-1");
  EXPECT_EQ(visible_device(-1, "5,7"), "-1");
}

// Every program the batch runs on a GPU gets its device and one hardware queue per context (the
// driver's lock that every context's making and ending takes is one for the whole host).
TEST(VisibleDevices, AProgramsGpuEnvironment) {
  using Environment = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(gpu_environment(1, "5,7"),
            (Environment{{"CUDA_VISIBLE_DEVICES", "7"}, {"CUDA_DEVICE_MAX_CONNECTIONS", "1"}}));
  EXPECT_EQ(gpu_environment(0, nullptr).front().second, "0");
}

}  // namespace
}  // namespace batch
