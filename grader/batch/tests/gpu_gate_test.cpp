#include "batch/gpu_gate.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

namespace batch {
namespace {

using namespace std::chrono_literals;

// A speed run must have the GPU alone: no shared user may start while it runs.
TEST(GpuGate, ExclusiveUseKeepsSharedUsersOut) {
  GpuGate gate(4);
  std::atomic<int> inside{0};
  std::atomic<bool> overlap{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        if ((t + round) % 3 == 0) {
          ExclusiveUse alone(gate);
          if (inside.fetch_add(100) != 0) overlap = true;
          std::this_thread::sleep_for(200us);
          inside.fetch_sub(100);
        } else {
          SharedUse shared(gate);
          if (inside.fetch_add(1) >= 100) overlap = true;
          std::this_thread::sleep_for(100us);
          inside.fetch_sub(1);
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_FALSE(overlap);
}

TEST(GpuGate, SharedUseIsCapped) {
  GpuGate gate(2);
  std::atomic<int> inside{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&] {
      SharedUse shared(gate);
      const int now = ++inside;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(5ms);
      --inside;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_LE(most.load(), 2);
  EXPECT_GE(most.load(), 1);
}

// Speed runs start their programs ahead of their turns, but only a few per GPU: each waiting
// program holds CUDA contexts.
TEST(GpuGate, OnlyAFewSpeedRunsStartAhead) {
  GpuGate gate(8);
  std::atomic<int> ahead{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2 * GpuGate::kHeadStarts + 1; ++t) {
    threads.emplace_back([&] {
      HeadStart head_start(gate);
      const int now = ++ahead;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(20ms);
      ExclusiveUse alone(gate);  // its turn, with the head start still held
      --ahead;
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(most.load(), GpuGate::kHeadStarts);
}

// Correctness runs overlap one another but not a speed run: a shared user that is waiting goes
// before a waiting speed run, which starts as soon as no shared user is left.
TEST(GpuGate, WaitingSharedUsersGoBeforeAWaitingExclusiveUser) {
  GpuGate gate(1);
  gate.lock_shared();
  std::atomic<bool> exclusive_done{false};
  std::atomic<bool> shared_done{false};
  std::atomic<bool> exclusive_before_shared{false};
  std::thread exclusive([&] {
    ExclusiveUse alone(gate);
    if (!shared_done) exclusive_before_shared = true;
    exclusive_done = true;
  });
  std::this_thread::sleep_for(20ms);  // the exclusive user is waiting now
  std::thread later_shared([&] {
    SharedUse shared(gate);
    shared_done = true;
  });
  std::this_thread::sleep_for(20ms);  // and so is a second shared user (the cap is 1)
  EXPECT_FALSE(exclusive_done);
  gate.unlock_shared();
  later_shared.join();
  exclusive.join();
  EXPECT_FALSE(exclusive_before_shared);
  EXPECT_TRUE(exclusive_done);
}

TEST(GpuPool, PicksTheLeastBusyGpu) {
  GpuPool pool({3, 5}, 1);
  auto [first, gate] = pool.least_busy();
  gate->lock();
  auto [second, other] = pool.least_busy();
  EXPECT_NE(first, second);
  gate->unlock();
}

}  // namespace
}  // namespace batch
