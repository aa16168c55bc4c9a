// The emulator's race check on shared memory (emulation/src/shared_race_check.hpp): two threads
// of a block touching one word between the same barriers, one of them writing, are reported with
// the lines, the threads, the block, the kind and the place, as compute-sanitizer's racecheck
// reports them on a GPU; right kernels report nothing, and the report is the same at every
// schedule.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "emulator_fixture.hpp"

namespace {

class Race : public emu_test::EmulatorFixture {
 protected:
  void SetUp() override {
    EmulatorFixture::SetUp();
    emu::take_shared_race();  // nothing left from another test
  }
  // The report of `launch` under a schedule, described.
  template <class Launch>
  std::string report_under(emu::Schedule schedule, std::uint64_t seed, Launch launch) {
    use(schedule, seed);
    launch();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto race = emu::take_shared_race();
    return race ? emu::describe(*race) : std::string("no race");
  }
};

// Each thread stores its element, then reads its right neighbour's: no barrier between.
constexpr int kNeighbourStore = __LINE__ + 3;
__global__ void reads_neighbour_without_barrier(const float* in, float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

// The next phase's store overwrites what another thread still reads: no barrier after the use.
constexpr int kPhaseStore = __LINE__ + 5;
__global__ void next_phase_overwrites(const float* in, float* out, int phases) {
  __shared__ float tile[64];
  float sum = 0;
  for (int p = 0; p < phases; ++p) {
    tile[threadIdx.x] = in[p * 64 + threadIdx.x];
    __syncthreads();
    sum += tile[(threadIdx.x + 1) % 64];
  }
  out[threadIdx.x] = sum;
}

// Every thread writes flag[0]: the same value, or its own.
constexpr int kFlagStore = __LINE__ + 3;
__global__ void all_write_one_word(float* out, bool own_value) {
  __shared__ unsigned flag[1];
  flag[0] = own_value ? threadIdx.x : 1u;
  __syncthreads();
  out[threadIdx.x] = static_cast<float>(flag[0]);
}

// The any-size tiled product (lab 7's kernel): right at every size.
__global__ void tiled_any_size(const float* A, const float* B, float* C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float sum = 0;
  for (int phase = 0; phase < (n + 15) / 16; ++phase) {
    As[ty][tx] = row < n && phase * 16 + tx < n ? A[row * n + phase * 16 + tx] : 0.0f;
    Bs[ty][tx] = col < n && phase * 16 + ty < n ? B[(phase * 16 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

// A reduction tree with a barrier after each step; the last warp's steps either with
// __syncwarp() between each read and write (right), or warp-synchronously without (a race).
__global__ void tree_sum(const float* in, float* out, bool warp_tail, bool syncwarp) {
  __shared__ float partial[256];
  const unsigned t = threadIdx.x;
  partial[t] = in[t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > (warp_tail ? 32u : 0u); s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (warp_tail && t < 32) {
    for (unsigned s = 32; s > 0; s >>= 1) {
      if (syncwarp) {
        const float value = partial[t] + partial[t + s];
        __syncwarp();
        partial[t] = value;
        __syncwarp();
      } else {
        partial[t] += partial[t + s];  // the classic tail: lanes do not run in lockstep
      }
    }
  }
  if (t == 0) out[0] = partial[0];
}

// Warp sums by shuffles, one word a warp, summed by thread 0 after a barrier: right.
__global__ void shuffle_sum(const float* in, float* out) {
  __shared__ float warp_sums[8];
  float value = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2)
    value += __shfl_down_sync(0xffffffff, value, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    float sum = 0;
    for (int w = 0; w < 8; ++w) sum += warp_sums[w];
    out[0] = sum;
  }
}

// As reads_neighbour_without_barrier, in dynamic shared memory.
__global__ void dynamic_neighbour(const float* in, float* out) {
  extern __shared__ float cells[];
  cells[threadIdx.x] = in[threadIdx.x];
  out[threadIdx.x] = cells[(threadIdx.x + 1) % 64];
}

TEST_F(Race, MissingBarrierBeforeTheReadIsAReadAfterWrite) {
  const float* in = device<float>(64);
  float* out = device<float>(64);
  reads_neighbour_without_barrier<<<1, 64>>>(in, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // reported, the values stand
  const auto race = emu::take_shared_race();
  ASSERT_TRUE(race);
  EXPECT_EQ(race->kind, "read after write");
  EXPECT_EQ(race->line, kNeighbourStore + 1);
  EXPECT_EQ(race->other_line, kNeighbourStore);
  EXPECT_EQ(race->thread.x, 63u);       // reads tile[0] ...
  EXPECT_EQ(race->other_thread.x, 0u);  // ... which thread 0 writes
  EXPECT_FALSE(race->same_warp);
  EXPECT_EQ(emu::describe(*race),
            "race_test.cu:" + std::to_string(kNeighbourStore + 1) +
                " (reads_neighbour_without_barrier), thread (63,0,0) of block (0,0,0): read after "
                "write of tile[0] (tile + 0 bytes) in shared memory, which thread (0,0,0) writes "
                "at race_test.cu:" +
                std::to_string(kNeighbourStore) +
                " with no __syncthreads() between them, and 63 more like it");
  EXPECT_FALSE(emu::take_shared_race()) << "taken once";
}

TEST_F(Race, NextPhaseStoreOverAnotherThreadsReadIsAWriteAfterRead) {
  const float* in = device<float>(128);
  float* out = device<float>(64);
  next_phase_overwrites<<<2, 64>>>(in, out, 2);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto race = emu::take_shared_race();
  ASSERT_TRUE(race);
  EXPECT_EQ(emu::describe(*race),
            "race_test.cu:" + std::to_string(kPhaseStore) +
                " (next_phase_overwrites), thread (0,0,0) of block (0,0,0): write after read of "
                "tile[0] (tile + 0 bytes) in shared memory, which thread (63,0,0) reads at "
                "race_test.cu:" +
                std::to_string(kPhaseStore + 2) +
                " with no __syncthreads() between them, and 127 more like it");  // 2 blocks
}

TEST_F(Race, TheReportIsTheSameAtEverySchedule) {
  const float* in = device<float>(128);
  float* out = device<float>(64);
  const auto neighbour = [&] { reads_neighbour_without_barrier<<<3, 64>>>(in, out); };
  const auto phases = [&] { next_phase_overwrites<<<3, 64>>>(in, out, 2); };
  const std::string first = report_under(emu::Schedule::forward, 1, neighbour);
  const std::string second = report_under(emu::Schedule::forward, 1, phases);
  EXPECT_NE(first, "no race");
  EXPECT_NE(second, "no race");
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    for (auto schedule : {emu::Schedule::reverse, emu::Schedule::random}) {
      EXPECT_EQ(report_under(schedule, seed, neighbour), first) << seed;
      EXPECT_EQ(report_under(schedule, seed, phases), second) << seed;
    }
  }
}

TEST_F(Race, TwoThreadsWritingTheSameValueIsNoRaceOtherValuesAre) {
  float* out = device<float>(64);
  all_write_one_word<<<1, 64>>>(out, false);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_shared_race()) << "racecheck leaves identical writes at its INFO level";

  all_write_one_word<<<1, 64>>>(out, true);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto race = emu::take_shared_race();
  ASSERT_TRUE(race);
  EXPECT_EQ(race->kind, "write after write");
  EXPECT_EQ(race->line, kFlagStore);
  EXPECT_EQ(race->thread.x, 1u);
  EXPECT_EQ(race->other_thread.x, 0u);
  EXPECT_NE(emu::describe(*race).find("write after write of flag[0] (flag + 0 bytes) in shared "
                                      "memory, which thread (0,0,0) writes with another value"),
            std::string::npos)
      << emu::describe(*race);
}

TEST_F(Race, RightTiledKernelAtOddSizesReportsNothing) {
  for (const int n : {1, 17, 37}) {
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; ++i) {
      a[i] = static_cast<float>(i % 7);
      b[i] = static_cast<float>(i % 5) - 2.0f;
    }
    float* A = device<float>(a.size());
    float* B = device<float>(b.size());
    float* C = device<float>(a.size());
    ASSERT_EQ(cudaMemcpy(A, a.data(), a.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(B, b.data(), b.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    const dim3 grid((n + 15) / 16, (n + 15) / 16);
    tiled_any_size<<<grid, dim3(16, 16)>>>(A, B, C, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_FALSE(emu::take_shared_race()) << "n = " << n;
    const auto c = host(C, a.size());
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        float expected = 0;
        for (int k = 0; k < n; ++k) expected += a[i * n + k] * b[k * n + j];
        ASSERT_EQ(c[i * n + j], expected) << "n = " << n << " at " << i << ", " << j;
      }
    }
  }
}

TEST_F(Race, ReductionTreeWithBarriersReportsNothing) {
  const float* in = device<float>(256);
  float* out = device<float>(1);
  tree_sum<<<2, 256>>>(in, out, false, false);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_shared_race());
  tree_sum<<<2, 256>>>(in, out, true, true);  // the warp's tail ordered by __syncwarp()
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_shared_race());
}

// racecheck on sm_70 and later reports a warp-synchronous tail without __syncwarp(): the lanes of
// a warp do not run in lockstep since Volta. So does the emulator, naming __syncwarp().
TEST_F(Race, WarpSynchronousTailWithoutSyncwarpIsARace) {
  const float* in = device<float>(256);
  float* out = device<float>(1);
  tree_sum<<<1, 256>>>(in, out, true, false);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto race = emu::take_shared_race();
  ASSERT_TRUE(race);
  EXPECT_TRUE(race->same_warp);
  EXPECT_NE(emu::describe(*race).find("with no __syncthreads() or __syncwarp() between them"),
            std::string::npos)
      << emu::describe(*race);
}

TEST_F(Race, ShuffleReductionReportsNothing) {
  const float* in = device<float>(256);
  float* out = device<float>(1);
  shuffle_sum<<<2, 256>>>(in, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_shared_race());
}

TEST_F(Race, DynamicSharedMemoryIsNamedByOffset) {
  const float* in = device<float>(64);
  float* out = device<float>(64);
  dynamic_neighbour<<<1, 64, 64 * sizeof(float)>>>(in, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto race = emu::take_shared_race();
  ASSERT_TRUE(race);
  EXPECT_EQ(race->place, "the dynamic shared memory + 0 bytes");
  EXPECT_EQ(race->kind, "read after write");
}

TEST_F(Race, TurnedOffItReportsNothing) {
  const float* in = device<float>(64);
  float* out = device<float>(64);
  emu::Settings settings{emu::Schedule::random, 1, 2};
  settings.race_check = false;
  emu::configure(settings);
  reads_neighbour_without_barrier<<<1, 64>>>(in, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(emu::take_shared_race());
}

}  // namespace

namespace {
// Not a test: what the race check costs a tiled product (run with
// --gtest_also_run_disabled_tests --gtest_filter='*Cost*').
TEST_F(Race, DISABLED_CostOnATiledProduct) {
  const int n = 256;
  float* A = device<float>(n * n);
  float* B = device<float>(n * n);
  float* C = device<float>(n * n);
  for (const bool on : {false, true, false, true}) {
    emu::Settings settings{emu::Schedule::random, 1, 1};
    settings.race_check = on;
    emu::configure(settings);
    const auto start = std::chrono::steady_clock::now();
    tiled_any_size<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    std::printf("race check %s: %.3f s\n", on ? "on " : "off", took.count());
  }
}
}  // namespace
