// The emulator's tests run each test on 2 OS threads with a fixed schedule, with device buffers
// freed and the runtime left clean after it (a fault is sticky until cudaDeviceReset).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace emu_test {

class EmulatorFixture : public ::testing::Test {
 protected:
  void use(emu::Schedule schedule, std::uint64_t seed = 1, int threads = 2) {
    emu::configure({schedule, seed, threads});
  }
  void SetUp() override { use(emu::Schedule::random); }
  void TearDown() override { cudaDeviceReset(); }

  // `count` zeroed elements of device memory, freed after the test.
  template <class T>
  T* device(std::size_t count) {
    T* pointer = nullptr;
    EXPECT_EQ(cudaMalloc(&pointer, count * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemset(pointer, 0, count * sizeof(T)), cudaSuccess);
    allocations_.push_back(pointer);
    return pointer;
  }
  template <class T>
  std::vector<T> host(const T* pointer, std::size_t count) {
    std::vector<T> values(count);
    EXPECT_EQ(cudaMemcpy(values.data(), pointer, count * sizeof(T), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return values;
  }
  ~EmulatorFixture() override {
    for (void* pointer : allocations_) cudaFree(pointer);
  }

 private:
  std::vector<void*> allocations_;
};

}  // namespace emu_test
