// The emulated warp functions, tested through CUDA code built like a lab's kernel.cu: known
// answers for each shuffle (widths below 32, source lanes out of range), votes, reductions,
// __activemask() and __syncwarp(), warp-shuffle reductions under every schedule, and each way a
// warp function can be misused, which must fail the launch with a message that says where.
#include <cuda_runtime.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "emulator_fixture.hpp"

namespace {

constexpr unsigned kFull = 0xffffffffu;

class Warps : public emu_test::EmulatorFixture {
 protected:
  // The launch must fail at the next synchronizing call; returns the emulator's message.
  std::string launch_failure() {
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the launch itself succeeds, as on a GPU";
    const cudaError_t error = cudaDeviceSynchronize();
    EXPECT_EQ(error, cudaErrorLaunchFailure);
    return cudaGetErrorString(error);
  }
};

constexpr emu::Schedule kSchedules[] = {emu::Schedule::forward, emu::Schedule::reverse,
                                        emu::Schedule::random};

__device__ unsigned linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

// ---- known-answer kernels -------------------------------------------------------------------

// mode 0: __shfl_sync, 1: up, 2: down, 3: xor; each lane's var is 100 + its lane.
__global__ void shuffle(int* out, int mode, int operand, int width) {
  const int lane = threadIdx.x % 32;
  const int var = 100 + lane;
  int result = 0;
  if (mode == 0) result = __shfl_sync(kFull, var, operand, width);
  if (mode == 1) result = __shfl_up_sync(kFull, var, operand, width);
  if (mode == 2) result = __shfl_down_sync(kFull, var, operand, width);
  if (mode == 3) result = __shfl_xor_sync(kFull, var, operand, width);
  out[blockIdx.x * blockDim.x + threadIdx.x] = result;
}

// Each lane reads from its own source lane: a rotation by one.
__global__ void rotate(int* out) {
  const int lane = threadIdx.x % 32;
  out[threadIdx.x] = __shfl_sync(kFull, lane * lane, (lane + 1) % 32);
}

// Every shuffle of every type, on values that need all their bits.
template <class T>
__global__ void shuffle_type(T* out, T base) {
  const int lane = threadIdx.x % 32;
  const T var = static_cast<T>(base + static_cast<T>(lane));
  T* row = out + threadIdx.x * 4;
  row[0] = __shfl_sync(kFull, var, 31 - lane);
  row[1] = __shfl_up_sync(kFull, var, 2);
  row[2] = __shfl_down_sync(kFull, var, 2, 16);
  row[3] = __shfl_xor_sync(kFull, var, 5);
}

// Only lanes 0-15 call, with a mask of exactly those: lanes 8-15 read lanes 16-23, which are not
// in the mask (undefined on a GPU; the caller's own value here).
__global__ void shuffle_half_warp(int* out) {
  const int lane = threadIdx.x % 32;
  int result = -1;
  if (lane < 16) result = __shfl_down_sync(0x0000ffffu, 100 + lane, 8);
  out[threadIdx.x] = result;
}

__global__ void votes(unsigned* ballots, int* any, int* all, int* all_true) {
  const unsigned lane = linear_thread() % 32;
  const unsigned thread = linear_thread();
  ballots[thread] = __ballot_sync(kFull, lane % 3 == 0);
  any[thread] = __any_sync(kFull, lane == 17);
  all[thread] = __all_sync(kFull, lane != 17);
  all_true[thread] = __all_sync(kFull, 1);
}

// A 2D block: warp 0 is rows 0-3 of x 0-7; the ballot of "row 1" is bits 8-15.
__global__ void ballot_2d(unsigned* out) {
  out[linear_thread()] = __ballot_sync(kFull, threadIdx.y == 1);
}

// The last warp of a 48-thread block has 16 lanes: its mask names only those.
__global__ void partial_warp(unsigned* out) {
  const unsigned mask = threadIdx.x < 32 ? kFull : 0x0000ffffu;
  out[threadIdx.x] = __ballot_sync(mask, threadIdx.x % 2) | __activemask();
}

__global__ void reductions(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  unsigned* row = out + threadIdx.x * 9;
  row[0] = __reduce_add_sync(kFull, lane);
  row[1] = static_cast<unsigned>(__reduce_add_sync(kFull, -static_cast<int>(lane)));
  row[2] = __reduce_min_sync(kFull, 40u - lane);
  row[3] = static_cast<unsigned>(__reduce_min_sync(kFull, static_cast<int>(lane) - 5));
  row[4] = __reduce_max_sync(kFull, lane * 3);
  row[5] = static_cast<unsigned>(__reduce_max_sync(kFull, -static_cast<int>(lane) - 1));
  row[6] = __reduce_and_sync(kFull, lane | 0x100u);
  row[7] = __reduce_or_sync(kFull, 1u << lane);
  row[8] = __reduce_xor_sync(kFull, lane);
}

// Converged, __activemask() names the whole warp; in each side of a branch, that side's lanes.
__global__ void active_masks(unsigned* converged, unsigned* branch) {
  converged[threadIdx.x] = __activemask();
  if (threadIdx.x % 32 < 10) {
    branch[threadIdx.x] = __activemask();
  } else {
    branch[threadIdx.x] = __activemask();
  }
}

// Warp-synchronous exchange through shared memory: right only if __syncwarp() is a real barrier
// (the schedules run the lanes in other orders). The two branches' __syncwarp() calls meet. The
// values differ per launch and block, so what an earlier block left in shared memory is wrong.
__global__ void exchange_through_shared(int* out, int salt) {
  __shared__ int values[64];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  values[threadIdx.x] = salt + 10000 * blockIdx.x + 1000 * warp + lane;
  if (lane % 2 == 0) {
    __syncwarp();
  } else {
    __syncwarp();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = values[warp * 32 + (lane + 1) % 32];
}

// The classic block sum: each warp reduces with __shfl_down_sync, warp sums meet in shared
// memory, warp 0 reduces them. Also a butterfly (xor) all-reduce that every lane must agree on.
__global__ void block_sum(const int* in, int* sums, int* lanes_agree) {
  __shared__ int warp_sums[32];
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = threadIdx.x / 32;
  const int value = in[blockIdx.x * blockDim.x + threadIdx.x];
  int sum = value;
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(kFull, sum, offset);
  if (lane == 0) warp_sums[warp] = sum;
  int all = value;
  for (int mask = 1; mask < 32; mask *= 2) all += __shfl_xor_sync(kFull, all, mask);
  if (all != __shfl_sync(kFull, all, 0)) atomicAdd(lanes_agree, 1);
  __syncthreads();
  if (warp == 0) {
    sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(kFull, sum, offset);
    if (lane == 0) sums[blockIdx.x] = sum;
  }
}

// Inclusive scan of a warp with __shfl_up_sync: lanes below the offset keep their value.
__global__ void warp_scan(int* out) {
  const int lane = threadIdx.x % 32;
  int value = lane + 1;
  for (int offset = 1; offset < 32; offset *= 2) {
    const int below = __shfl_up_sync(kFull, value, offset);
    if (lane >= offset) value += below;
  }
  out[threadIdx.x] = value;
}

// ---- misuse -----------------------------------------------------------------------------------

constexpr int kReturnedLine = __LINE__ + 6;
// In block 3, lanes 20-31 of warp 1 return before the shuffle their mask names them in.
__global__ void returns_before_shuffle(int* out) {
  const int lane = threadIdx.x % 32;
  if (blockIdx.x == 3 && threadIdx.x / 32 == 1 && lane >= 20) return;
  int value = lane;
  value += __shfl_down_sync(kFull, value, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}

constexpr int kOwnMaskLine = __LINE__ + 3;
__global__ void not_in_own_mask(int* out) {
  const int lane = threadIdx.x % 32;
  out[threadIdx.x] = __shfl_sync(0x0000ffffu, lane, 0);
}

constexpr int kFirstSideLine = __LINE__ + 6;
constexpr int kSecondSideLine = __LINE__ + 7;
__global__ void shuffles_on_two_lines(int* out) {
  const int lane = threadIdx.x % 32;
  int value = lane;
  if (lane < 16) {
    value = __shfl_xor_sync(kFull, value, 1);
  } else {
    value = __shfl_xor_sync(kFull, value, 1);
  }
  out[threadIdx.x] = value;
}

constexpr int kOtherMaskLine = __LINE__ + 4;
__global__ void different_masks(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned mask = lane < 16 ? kFull : 0xfffffffeu;
  out[threadIdx.x] = __ballot_sync(mask, 1);
}

constexpr int kMissingLine = __LINE__ + 2;
// Launched with 48 threads: the full mask names lanes 16-31 of warp 1, which do not exist.
__global__ void mask_beyond_block(unsigned* out) { out[threadIdx.x] = __ballot_sync(kFull, 1); }

constexpr int kBeforeBarrierLine = __LINE__ + 4;
constexpr int kBarrierLine = __LINE__ + 4;
__global__ void shuffle_against_barrier(int* out) {
  const int lane = threadIdx.x % 32;
  if (lane < 16) out[threadIdx.x] = __shfl_sync(kFull, lane, 0);
  __syncthreads();
}

__global__ void bad_width(int* out) { out[threadIdx.x] = __shfl_sync(kFull, 1, 0, 24); }

// ---- tests: known answers ---------------------------------------------------------------------

std::vector<int> expected_shuffle(int mode, int operand, int width) {
  std::vector<int> expected(64);
  for (int thread = 0; thread < 64; ++thread) {
    const int lane = thread % 32;
    const int first = lane / width * width;
    int source = lane;
    if (mode == 0) source = first + ((operand % width) + width) % width;
    if (mode == 1 && lane - operand >= first) source = lane - operand;
    if (mode == 2 && lane + operand < first + width) source = lane + operand;
    if (mode == 3 && (lane ^ operand) < first + width) source = lane ^ operand;
    expected[thread] = 100 + source;
  }
  return expected;
}

TEST_F(Warps, ShuffleKnownAnswersWithWidthsAndOutOfRangeLanes) {
  struct Case {
    int mode, operand, width;
  };
  const Case cases[] = {
      {0, 3, 32}, {0, 2, 8},  {0, 35, 32}, {0, -1, 8},  {0, 17, 16}, {0, 0, 1}, {1, 3, 32},
      {1, 3, 8},  {1, 0, 32}, {1, 40, 32}, {2, 5, 32},  {2, 5, 16},  {2, 1, 2}, {2, 32, 32},
      {3, 1, 32}, {3, 8, 8},  {3, 16, 16}, {3, 31, 32}, {3, 12, 16}, {3, 1, 1},
  };
  int* out = device<int>(64);
  for (const auto& c : cases) {
    shuffle<<<1, 64>>>(out, c.mode, c.operand, c.width);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(host(out, 64), expected_shuffle(c.mode, c.operand, c.width))
        << "mode " << c.mode << ", operand " << c.operand << ", width " << c.width;
  }
}

TEST_F(Warps, XorReachesEarlierSegmentsButNotLaterOnes) {
  int* out = device<int>(64);
  shuffle<<<1, 64>>>(out, 3, 8, 8);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 64);
  EXPECT_EQ(values[3], 103) << "lane 3 ^ 8 = 11 lies in a later segment: its own value";
  EXPECT_EQ(values[11], 103) << "lane 11 ^ 8 = 3 lies in an earlier segment: allowed";
}

TEST_F(Warps, EachLaneReadsItsOwnSourceLane) {
  int* out = device<int>(32);
  rotate<<<1, 32>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 32);
  for (int lane = 0; lane < 32; ++lane)
    EXPECT_EQ(values[lane], (lane + 1) % 32 * ((lane + 1) % 32));
}

template <class T>
void expect_every_shuffle(const std::vector<T>& values, T base) {
  for (int thread = 0; thread < 64; ++thread) {
    const int lane = thread % 32;
    const auto at = [&](int source) { return static_cast<T>(base + static_cast<T>(source)); };
    EXPECT_EQ(values[thread * 4 + 0], at(31 - lane)) << thread;
    EXPECT_EQ(values[thread * 4 + 1], at(lane >= 2 ? lane - 2 : lane)) << thread;
    EXPECT_EQ(values[thread * 4 + 2], at(lane % 16 < 14 ? lane + 2 : lane)) << thread;
    EXPECT_EQ(values[thread * 4 + 3], at(lane ^ 5)) << thread;
  }
}

template <class T>
void run_types(T* out, T base) {
  shuffle_type<<<1, 64>>>(out, base);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  std::vector<T> values(64 * 4);
  ASSERT_EQ(cudaMemcpy(values.data(), out, values.size() * sizeof(T), cudaMemcpyDeviceToHost),
            cudaSuccess);
  expect_every_shuffle(values, base);
}

TEST_F(Warps, ShufflesKeepEveryBitOfEveryType) {
  run_types(device<int>(256), -1000000);
  run_types(device<unsigned>(256), 4000000000u);
  run_types(device<float>(256), 0.125f);
  run_types(device<double>(256), 0.1);
  run_types(device<long long>(256), -(1LL << 50));
  run_types(device<unsigned long long>(256), (1ULL << 63) + 7);
}

TEST_F(Warps, ASourceLaneOutsideTheMaskGivesTheCallersOwnValue) {
  int* out = device<int>(32);
  shuffle_half_warp<<<1, 32>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 32);
  for (int lane = 0; lane < 32; ++lane) {
    const int expected = lane < 8 ? 108 + lane : lane < 16 ? 100 + lane : -1;
    EXPECT_EQ(values[lane], expected) << lane;
  }
}

TEST_F(Warps, BallotAnyAndAll) {
  constexpr int kThreads = 96;
  auto* ballots = device<unsigned>(kThreads);
  int* any = device<int>(kThreads);
  int* all = device<int>(kThreads);
  int* all_true = device<int>(kThreads);
  votes<<<2, kThreads>>>(ballots, any, all, all_true);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  unsigned every_third = 0;
  for (int lane = 0; lane < 32; lane += 3) every_third |= 1u << lane;
  EXPECT_EQ(host(ballots, kThreads), std::vector<unsigned>(kThreads, every_third));
  EXPECT_EQ(host(any, kThreads), std::vector<int>(kThreads, 1));
  EXPECT_EQ(host(all, kThreads), std::vector<int>(kThreads, 0));
  EXPECT_EQ(host(all_true, kThreads), std::vector<int>(kThreads, 1));
}

TEST_F(Warps, WarpsAreConsecutiveLinearThreadIds) {
  auto* out = device<unsigned>(64);
  ballot_2d<<<1, dim3(8, 4, 2)>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(host(out, 64), std::vector<unsigned>(64, 0x0000ff00u));
}

TEST_F(Warps, APartialLastWarpHasOnlyItsLanes) {
  auto* out = device<unsigned>(48);
  partial_warp<<<1, 48>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 48);
  EXPECT_EQ(values[0], kFull);
  EXPECT_EQ(values[40], 0x0000ffffu);
}

TEST_F(Warps, Reductions) {
  auto* out = device<unsigned>(64 * 9);
  reductions<<<1, 64>>>(out);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto values = host(out, 64 * 9);
  unsigned xor_all = 0;
  for (unsigned lane = 0; lane < 32; ++lane) xor_all ^= lane;
  const std::vector<unsigned> expected{
      496,    static_cast<unsigned>(-496), 9,      static_cast<unsigned>(-5),
      93,     static_cast<unsigned>(-1),   0x100u, kFull,
      xor_all};
  for (int thread = 0; thread < 64; ++thread) {
    EXPECT_EQ(std::vector<unsigned>(values.begin() + thread * 9, values.begin() + thread * 9 + 9),
              expected)
        << thread;
  }
}

TEST_F(Warps, ActivemaskNamesTheLanesAtTheSameCall) {
  for (auto schedule : kSchedules) {
    use(schedule);
    auto* converged = device<unsigned>(64);
    auto* branch = device<unsigned>(64);
    active_masks<<<2, 64>>>(converged, branch);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(host(converged, 64), std::vector<unsigned>(64, kFull));
    const auto sides = host(branch, 64);
    for (int thread = 0; thread < 64; ++thread) {
      EXPECT_EQ(sides[thread], thread % 32 < 10 ? 0x3ffu : ~0x3ffu)
          << thread << ", " << emu::schedule_name(schedule);
    }
  }
}

TEST_F(Warps, SyncwarpIsARealBarrierForTheWarp) {
  int* out = device<int>(3 * 64);
  int salt = 0;
  for (auto schedule : kSchedules) {
    use(schedule);
    salt += 100000;
    exchange_through_shared<<<3, 64>>>(out, salt);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto values = host(out, 3 * 64);
    for (int i = 0; i < 3 * 64; ++i) {
      const int thread = i % 64;
      EXPECT_EQ(values[i], salt + 10000 * (i / 64) + 1000 * (thread / 32) + (thread % 32 + 1) % 32)
          << i << ", " << emu::schedule_name(schedule);
    }
  }
}

TEST_F(Warps, ShuffleReductionsAndScansGiveTheSameResultsUnderEverySchedule) {
  constexpr int kBlocks = 40;
  constexpr int kThreads = 256;
  int* in = device<int>(kBlocks * kThreads);
  int* sums = device<int>(kBlocks);
  int* disagreements = device<int>(1);
  int* scan = device<int>(64);
  std::vector<int> values(kBlocks * kThreads);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<int>(i * 7919 % 1001) - 500;
  cudaMemcpy(in, values.data(), values.size() * sizeof(int), cudaMemcpyHostToDevice);
  std::vector<int> expected(kBlocks);
  for (int block = 0; block < kBlocks; ++block) {
    expected[block] = std::accumulate(values.begin() + block * kThreads,
                                      values.begin() + (block + 1) * kThreads, 0);
  }
  std::vector<int> expected_scan(64);
  for (int thread = 0; thread < 64; ++thread) {
    const int lane = thread % 32;
    expected_scan[thread] = (lane + 1) * (lane + 2) / 2;
  }
  for (auto schedule : kSchedules) {
    for (std::uint64_t seed : {1, 2, 3}) {
      use(schedule, seed, 3);
      block_sum<<<kBlocks, kThreads>>>(in, sums, disagreements);
      warp_scan<<<1, 64>>>(scan);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      EXPECT_EQ(host(sums, kBlocks), expected) << emu::schedule_name(schedule) << " " << seed;
      EXPECT_EQ(host(disagreements, 1)[0], 0);
      EXPECT_EQ(host(scan, 64), expected_scan) << emu::schedule_name(schedule) << " " << seed;
    }
  }
}

// ---- tests: misuse fails the launch, with the line --------------------------------------------

std::string at_line(int line) { return "warp_test.cu:" + std::to_string(line); }

TEST_F(Warps, AMaskThatNamesReturnedLanesIsAnError) {
  for (auto schedule : kSchedules) {
    use(schedule);
    int* out = device<int>(6 * 64);
    returns_before_shuffle<<<6, 64>>>(out);
    const std::string message = launch_failure();
    EXPECT_NE(message.find("__shfl_down_sync at " + at_line(kReturnedLine) +
                           " in warp 1 of block (3, 0, 0) of returns_before_shuffle"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("the mask 0xffffffff names lanes 20-31, which had returned without "
                           "reaching it"),
              std::string::npos)
        << message;
    // Sticky until a reset, like any launch failure.
    EXPECT_EQ(cudaMemset(out, 0, 4), cudaErrorLaunchFailure);
    cudaDeviceReset();
  }
}

TEST_F(Warps, ALaneOutsideItsOwnMaskIsAnError) {
  use(emu::Schedule::forward);
  not_in_own_mask<<<1, 32>>>(device<int>(32));
  const std::string message = launch_failure();
  EXPECT_NE(
      message.find("__shfl_sync at " + at_line(kOwnMaskLine) + " in warp 0 of block (0, 0, 0)"),
      std::string::npos)
      << message;
  EXPECT_NE(message.find("lane 16 calls it with the mask 0x0000ffff, which does not name lane 16 "
                         "itself"),
            std::string::npos)
      << message;
}

TEST_F(Warps, LanesOfOneMaskAtDifferentCallsIsAnError) {
  for (auto schedule : kSchedules) {
    use(schedule);
    shuffles_on_two_lines<<<2, 32>>>(device<int>(32));
    const std::string message = launch_failure();
    EXPECT_NE(message.find("__shfl_xor_sync at " + at_line(kFirstSideLine) + " in warp 0 of block"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("names lanes 16-31, which wait at __shfl_xor_sync at " +
                           at_line(kSecondSideLine) + " instead"),
              std::string::npos)
        << message;
    cudaDeviceReset();
  }
}

TEST_F(Warps, LanesOfOneCallWithDifferentMasksIsAnError) {
  different_masks<<<1, 32>>>(device<unsigned>(32));
  const std::string message = launch_failure();
  EXPECT_NE(message.find("__ballot_sync at " + at_line(kOtherMaskLine)), std::string::npos)
      << message;
  EXPECT_NE(message.find("with the mask 0xfffffffe"), std::string::npos) << message;
}

TEST_F(Warps, AMaskThatNamesLanesBeyondTheBlockIsAnError) {
  mask_beyond_block<<<1, 48>>>(device<unsigned>(48));
  const std::string message = launch_failure();
  EXPECT_NE(message.find("__ballot_sync at " + at_line(kMissingLine) + " in warp 1"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("names lanes 16-31, which do not exist (the block has 48 threads, so "
                         "warp 1 has 16 lanes)"),
            std::string::npos)
      << message;
}

TEST_F(Warps, AShuffleThatWaitsForLanesAtABarrierIsAnError) {
  shuffle_against_barrier<<<1, 32>>>(device<int>(32));
  const std::string message = launch_failure();
  EXPECT_NE(message.find("__shfl_sync at " + at_line(kBeforeBarrierLine)), std::string::npos)
      << message;
  EXPECT_NE(
      message.find("names lanes 16-31, which wait at __syncthreads() at " + at_line(kBarrierLine)),
      std::string::npos)
      << message;
}

TEST_F(Warps, AWidthThatIsNotAPowerOfTwoIsAnError) {
  bad_width<<<1, 32>>>(device<int>(32));
  const std::string message = launch_failure();
  EXPECT_NE(message.find("the width 24, which is not a power of 2"), std::string::npos) << message;
}

}  // namespace
