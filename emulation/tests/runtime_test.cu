// The emulated runtime, tested through CUDA code built exactly like a lab's kernel.cu: barriers,
// divergent barriers, shared memory per block, atomics across parallel blocks, schedules, faults,
// launch errors and the launch recorder.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "emulator_fixture.hpp"

namespace {

constexpr int kThreads = 256;

class Emulator : public emu_test::EmulatorFixture {};

// ---- kernels ------------------------------------------------------------------------------

// Each thread stores its index, waits, then reads its right-hand neighbour's.
__global__ void rotate_left(int* out) {
  __shared__ int values[kThreads];
  values[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = values[(threadIdx.x + 1) % blockDim.x];
}

// Shifts the shared array left in place with no barrier between the read and the write: right
// when the threads run in order, wrong when a thread's right-hand neighbour has already shifted.
__global__ void racy_shift_left(int* out) {
  __shared__ int values[kThreads + 1];
  values[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) values[blockDim.x] = blockDim.x;
  __syncthreads();
  const int next = values[threadIdx.x + 1];
  values[threadIdx.x] = next;  // a __syncthreads() is missing before this write
  __syncthreads();
  out[threadIdx.x] = values[threadIdx.x];
}

__global__ void early_return_before_barrier(int* out, int active) {
  if (static_cast<int>(threadIdx.x) >= active) return;
  __syncthreads();
  out[threadIdx.x] = 1;
}

__global__ void barriers_on_two_lines(int* out) {
  if (threadIdx.x % 2 == 0) {
    __syncthreads();
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}

// Every thread must see its own block's value after the barrier, however blocks are spread over
// OS threads.
__global__ void block_sees_its_own_shared(int* out) {
  __shared__ int owner;
  if (threadIdx.x == 0) owner = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = owner;
}

__global__ void count_threads(unsigned long long* total, float* float_total) {
  atomicAdd(total, 1ULL);
  atomicAdd(float_total, 1.0f);
}

__global__ void tiles(float* out) {
  __shared__ float a[16][16];
  __shared__ float b[16][16];
  a[threadIdx.y][threadIdx.x] = 1;
  b[threadIdx.y][threadIdx.x] = 2;
  __syncthreads();
  out[threadIdx.y * 16 + threadIdx.x] = a[threadIdx.x][threadIdx.y] + b[threadIdx.x][threadIdx.y];
}

__global__ void block_sum(const int* in, int* out) {
  extern __shared__ int partial[];
  partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void count_odd(int* out) {
  const int odd = __syncthreads_count(threadIdx.x % 2);
  out[threadIdx.x] = odd;
}

template <class T>
__global__ void fill(T* out, T value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// Through a null pointer: the page at address 0 is never mapped.
__global__ void write_through(float* out) { out[threadIdx.x] = 1; }

__global__ void index_3d(int* out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  const int width = gridDim.x * blockDim.x;
  const int height = gridDim.y * blockDim.y;
  out[(z * height + y) * width + x] = (z * height + y) * width + x;
}

// ---- tests --------------------------------------------------------------------------------

TEST_F(Emulator, SyncthreadsIsARealBarrierUnderEverySchedule) {
  int* out = device<int>(4 * kThreads);
  for (auto schedule : {emu::Schedule::forward, emu::Schedule::reverse, emu::Schedule::random}) {
    use(schedule);
    rotate_left<<<4, kThreads>>>(out);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto values = host(out, 4 * kThreads);
    for (int i = 0; i < 4 * kThreads; ++i) {
      ASSERT_EQ(values[i], (i % kThreads + 1) % kThreads) << emu::schedule_name(schedule);
    }
  }
}

TEST_F(Emulator, SchedulesExposeAMissingSyncthreads) {
  int* out = device<int>(kThreads);
  const auto right = [&] {
    const auto values = host(out, kThreads);
    for (int i = 0; i < kThreads; ++i) {
      if (values[i] != i + 1) return false;
    }
    return true;
  };
  use(emu::Schedule::forward);
  racy_shift_left<<<1, kThreads>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(right()) << "in order, the race does not show";
  use(emu::Schedule::reverse);
  racy_shift_left<<<1, kThreads>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_FALSE(right()) << "in reverse order, the race must show";
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    use(emu::Schedule::random, seed);
    racy_shift_left<<<1, kThreads>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_FALSE(right()) << "a random order must show the race (seed " << seed << ")";
  }
}

TEST_F(Emulator, RandomSchedulesDifferBySeedAndRepeatWithTheSame) {
  int* out = device<int>(kThreads);
  std::vector<std::vector<int>> results;
  for (std::uint64_t seed : {7, 8, 7}) {
    use(emu::Schedule::random, seed);
    racy_shift_left<<<1, kThreads>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    results.push_back(host(out, kThreads));
  }
  EXPECT_NE(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST_F(Emulator, ABarrierThatSomeThreadsNeverReachIsAnError) {
  int* out = device<int>(kThreads);
  early_return_before_barrier<<<2, kThreads>>>(out, 200);
  // As on a GPU, the launch itself succeeds; the failure shows when the program synchronizes.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  const cudaError_t error = cudaDeviceSynchronize();
  EXPECT_EQ(error, cudaErrorLaunchFailure);
  const std::string message = cudaGetErrorString(error);
  EXPECT_NE(message.find("__syncthreads() at runtime_test.cu:"), std::string::npos) << message;
  EXPECT_NE(message.find("reached by 200 of the 256 threads"), std::string::npos) << message;
  // Sticky, like a GPU fault: nothing else works until a reset.
  EXPECT_EQ(cudaMemset(out, 0, 4), cudaErrorLaunchFailure);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure);
  cudaDeviceReset();
  EXPECT_EQ(cudaMemset(out, 0, 4), cudaSuccess);
}

TEST_F(Emulator, ThreadsWaitingAtDifferentBarriersIsAnError) {
  int* out = device<int>(64);
  barriers_on_two_lines<<<1, 64>>>(out);
  const cudaError_t error = cudaDeviceSynchronize();
  EXPECT_EQ(error, cudaErrorLaunchFailure);
  EXPECT_NE(std::string(cudaGetErrorString(error)).find("different __syncthreads() calls"),
            std::string::npos);
}

TEST_F(Emulator, AllThreadsReachingTheBarrierThenReturningIsFine) {
  int* out = device<int>(kThreads);
  early_return_before_barrier<<<3, kThreads>>>(out, kThreads);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// Reads its shared element before any thread wrote it (the mistake the diagnosis's shared-memory
// experiment finds), then writes it.
__global__ void reads_shared_before_writing(float* out) {
  __shared__ float stale[64];
  out[blockIdx.x * blockDim.x + threadIdx.x] = stale[threadIdx.x];
  stale[threadIdx.x] = -1.0f;
}

TEST_F(Emulator, StaticSharedArraysStartFromTheExperimentsFill) {
  constexpr int kBlocks = 40;
  use(emu::Schedule::random, 3, 4);
  float* out = device<float>(kBlocks * 64);
  for (const float fill : {0.5f, 7.0f}) {
    emu::fill_static_shared(fill);
    reads_shared_before_writing<<<kBlocks, 64>>>(out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    emu::fill_static_shared(std::nullopt);
    const auto values = host(out, kBlocks * 64);
    for (int i = 0; i < kBlocks * 64; ++i) ASSERT_EQ(values[i], fill) << i;
  }
}

TEST_F(Emulator, SharedMemoryIsPerBlockWhileBlocksRunInParallel) {
  constexpr int kBlocks = 500;
  use(emu::Schedule::random, 3, 4);
  int* out = device<int>(kBlocks * 64);
  block_sees_its_own_shared<<<kBlocks, 64>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, kBlocks * 64);
  for (int i = 0; i < kBlocks * 64; ++i) ASSERT_EQ(values[i], i / 64) << i;
}

TEST_F(Emulator, AtomicAddCountsEveryThreadOfBlocksRunningInParallel) {
  use(emu::Schedule::random, 3, 4);
  auto* total = device<unsigned long long>(1);
  auto* float_total = device<float>(1);
  count_threads<<<1000, 128>>>(total, float_total);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(host(total, 1)[0], 128000ULL);
  EXPECT_EQ(host(float_total, 1)[0], 128000.0f);
}

TEST_F(Emulator, DynamicSharedMemoryIsSizedByTheLaunch) {
  constexpr int kBlocks = 8;
  int* in = device<int>(kBlocks * 128);
  int* out = device<int>(kBlocks);
  std::vector<int> ones(kBlocks * 128, 1);
  cudaMemcpy(in, ones.data(), ones.size() * sizeof(int), cudaMemcpyHostToDevice);
  block_sum<<<kBlocks, 128, 128 * sizeof(int)>>>(in, out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(host(out, kBlocks), std::vector<int>(kBlocks, 128));
}

TEST_F(Emulator, SyncthreadsCountAddsThePredicates) {
  int* out = device<int>(100);
  count_odd<<<1, 100>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(host(out, 100), std::vector<int>(100, 50));
}

TEST_F(Emulator, TemplateKernelsAndMultiLineLaunchesWork) {
  double* out = device<double>(1000);
  // A launch over several lines, on purpose:
  // clang-format off
  fill<double>
      <<<(1000 + 255) / 256,
         256>>>(out, 2.5,
                1000);
  // clang-format on
  fill<<<4, 256>>>(out, 1.5, 10);  // the type deduced from the arguments
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 1000);
  EXPECT_EQ(values[0], 1.5);
  EXPECT_EQ(values[10], 2.5);
  EXPECT_EQ(values[999], 2.5);
}

TEST_F(Emulator, ThreeDimensionalGridsAndBlocksIndexLikeCuda) {
  int* out = device<int>(8 * 6 * 4);
  index_3d<<<dim3(2, 3, 2), dim3(4, 2, 2)>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 8 * 6 * 4);
  for (int i = 0; i < 8 * 6 * 4; ++i) ASSERT_EQ(values[i], i);
}

TEST_F(Emulator, BadConfigurationsFailAtLaunchWithCudasErrors) {
  int* out = device<int>(kThreads);
  rotate_left<<<0, kThreads>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "cudaGetLastError clears a launch error";
  rotate_left<<<1, 2048>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  rotate_left<<<1, dim3(32, 32, 2)>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  block_sum<<<1, 32, 100 * 1024>>>(out, out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "launch errors are not sticky";
}

TEST_F(Emulator, GridsOverCudasLimitsFailAtLaunchAndAreRecordedAsRefused) {
  int* out = device<int>(kThreads);
  emu::start_recording();
  rotate_left<<<dim3(1, 70000), 1>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  rotate_left<<<dim3(1, 1, 65536), 1>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  rotate_left<<<dim3(1, 1), dim3(128, 128)>>>(out);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  rotate_left<<<1, kThreads>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto recording = emu::stop_recording();
  // The lab program judges a refused launch's shape as the GPU's replay would: it is recorded.
  ASSERT_EQ(recording.launches.size(), 4u);
  EXPECT_EQ(recording.launches[0].refused, cudaErrorInvalidConfiguration);
  EXPECT_EQ(recording.launches[0].grid.y, 70000u);
  EXPECT_EQ(recording.launches[2].refused, cudaErrorInvalidConfiguration);
  EXPECT_EQ(recording.launches[2].block.x, 128u);
  EXPECT_EQ(recording.launches[3].refused, cudaSuccess);
}

TEST_F(Emulator, AWriteFarOutsideAnAllocationIsAnIllegalAddress) {
  write_through<<<1, 32>>>(nullptr);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  const cudaError_t error = cudaDeviceSynchronize();
  EXPECT_EQ(error, cudaErrorIllegalAddress);
  EXPECT_NE(std::string(cudaGetErrorString(error)).find("outside every cudaMalloc allocation"),
            std::string::npos);
  cudaDeviceReset();
  rotate_left<<<1, kThreads>>>(device<int>(kThreads));
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess) << "the emulator recovers after a reset";
}

TEST_F(Emulator, TheRecorderSeesLaunchShapesSharedMemoryAndCopies) {
  float* out = device<float>(256);
  int* in = device<int>(64);
  emu::start_recording();
  tiles<<<dim3(2, 3), dim3(16, 16)>>>(out);
  block_sum<<<2, 32, 32 * sizeof(int)>>>(in, in);
  float value = 0;
  cudaMemcpy(&value, out, sizeof value, cudaMemcpyDeviceToHost);
  const auto recording = emu::stop_recording();
  ASSERT_EQ(recording.launches.size(), 2u);
  const auto& first = recording.launches[0];
  EXPECT_EQ(first.name, "tiles");
  EXPECT_EQ(first.grid.x, 2u);
  EXPECT_EQ(first.grid.y, 3u);
  EXPECT_EQ(first.block.x, 16u);
  EXPECT_EQ(first.static_shared_bytes, 2 * 16 * 16 * 4);
  EXPECT_EQ(first.dynamic_shared_bytes, 0);
  EXPECT_EQ(recording.launches[1].static_shared_bytes, 0);
  EXPECT_EQ(recording.launches[1].dynamic_shared_bytes, 32 * 4);
  EXPECT_EQ(recording.memory_copies, 1);
  EXPECT_EQ(value, 3.0f);
}

TEST_F(Emulator, EventsMeasureTime) {
  cudaEvent_t start, stop;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  cudaEventRecord(start);
  rotate_left<<<64, kThreads>>>(device<int>(64 * kThreads));
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = -1;
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_GE(ms, 0.0f);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

}  // namespace
