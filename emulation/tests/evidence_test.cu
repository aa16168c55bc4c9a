// The emulator's evidence facts (emulation/src/evidence.hpp): what it measures in a launch's
// accesses, at the line. Each fact is shown on a kernel that has the fault and is absent on one
// that does not; the words are the same at every schedule.
#include <cuda_runtime.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "emulator_fixture.hpp"

namespace {

class Evidence : public emu_test::EmulatorFixture {
 protected:
  void SetUp() override {
    EmulatorFixture::SetUp();
    emu::take_evidence();  // nothing left from another test
    emu::take_memory_error();
    emu::take_shared_race();
  }
  // The facts of one kind that `launch` gives.
  template <class Launch>
  std::vector<emu::EvidenceFact> facts_of(const std::string& kind, Launch launch) {
    launch();
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<emu::EvidenceFact> facts;
    for (auto& fact : emu::take_evidence()) {
      if (fact.kind == kind) facts.push_back(std::move(fact));
    }
    return facts;
  }
};

constexpr int kColumnRead = __LINE__ + 5;
// Each thread sums a row of a 64 x 64 matrix (neighbouring threads read a column at each step),
// or a column (they read a row).
__global__ void sum_rows(const float* in, float* out, int n) {
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += in[threadIdx.x * n + k];
  out[threadIdx.x] = sum;
}
__global__ void sum_columns(const float* in, float* out, int n) {
  float sum = 0;
  for (int k = 0; k < n; ++k) sum += in[k * n + threadIdx.x];
  out[threadIdx.x] = sum;
}

constexpr int kIndexColumnRead = __LINE__ + 4;
// The same column read in a buffer of ints (a CSR kernel's col_index, a histogram's bins).
__global__ void sum_index_rows(const int* index, int* out, int n) {
  int sum = 0;
  for (int k = 0; k < n; ++k) sum += index[threadIdx.x * n + k];
  out[threadIdx.x] = sum;
}

constexpr int kTransposedRead = __LINE__ + 6;
// A 32 x 32 tile stored by rows and read by columns, without and with padding.
__global__ void transpose_unpadded(const float* in, float* out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
__global__ void transpose_padded(const float* in, float* out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

constexpr int kHalfStore = __LINE__ + 2;
// Two neighbouring threads store into one element, or add into it.
__global__ void store_halves(float* out) { out[threadIdx.x / 2] = 1.0f; }
__global__ void add_halves(float* out) { out[threadIdx.x / 2] += 1.0f; }

constexpr int kStaleRead = __LINE__ + 4;
// Reads shared memory no thread wrote, or its neighbour's after a barrier.
__global__ void reads_unwritten(float* out) {
  __shared__ float cells[64];
  out[threadIdx.x] = cells[threadIdx.x];
}
__global__ void reads_after_barrier(const float* in, float* out) {
  __shared__ float cells[64];
  cells[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = cells[(threadIdx.x + 1) % 64];
}

// A guarded copy; each block's thread 0 adds into a counter with an atomic.
__global__ void guarded_copy(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
__global__ void count_blocks(unsigned* count) {
  if (threadIdx.x == 0) atomicAdd(count, 1u);
}

constexpr int kInterleavedAdd = __LINE__ + 9;
// A block of 256 threads sums its 256 elements in shared memory: with interleaved addressing (the
// working threads every 2nd, then every 4th, ... of every warp) or sequential (threads 0 .. s-1).
__global__ void reduce_interleaved(const float* in, float* out) {
  __shared__ float sdata[256];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 1; s < 256; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
__global__ void reduce_sequential(const float* in, float* out) {
  __shared__ float sdata[256];
  const unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s > 0; s /= 2) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// A 1-column matrix read by rows of 32 threads: a guard leaves one lane of every warp in range.
__global__ void first_column_sums(const float* in, float* out, int cols) {
  float sum = 0;
  for (int k = 0; k < 4; ++k) {
    if (static_cast<int>(threadIdx.x % 32) < cols) sum += in[k * 8 + threadIdx.x / 32];
  }
  if (static_cast<int>(threadIdx.x % 32) < cols) out[threadIdx.x / 32] = sum;
}

TEST_F(Evidence, ColumnReadTouchesASectorPerLane) {
  const float* in = device<float>(64 * 64);
  float* out = device<float>(64);
  const auto facts = facts_of("uncoalesced_access", [&] { sum_rows<<<1, 64>>>(in, out, 64); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].line, kColumnRead);
  EXPECT_EQ(facts[0].kernel, "sum_rows");
  EXPECT_DOUBLE_EQ(facts[0].figure, 32.0);
  EXPECT_DOUBLE_EQ(facts[0].ideal, 4.0);
  EXPECT_EQ(facts[0].words,
            "evidence_test.cu:" + std::to_string(kColumnRead) +
                " (sum_rows): each warp's read of buffer touches 32.0 sectors of 32 bytes per "
                "request instead of 4.0 (the same threads reading consecutive elements): "
                "neighbouring threads' elements are 64 floats apart; measured over 64 warp-wide "
                "requests");
}

// The distance is counted in the buffer's own elements, as the lab named their type.
TEST_F(Evidence, AStrideInAnIntBufferIsCountedInInts) {
  int* index = device<int>(64 * 64);
  int* out = device<int>(64);
  emu::check_device_memory(index, 0, 64 * 64 * sizeof(int), "col_index", "int");
  const auto facts =
      facts_of("uncoalesced_access", [&] { sum_index_rows<<<1, 64>>>(index, out, 64); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].line, kIndexColumnRead);
  EXPECT_NE(facts[0].words.find("each warp's read of col_index touches 32.0 sectors"),
            std::string::npos)
      << facts[0].words;
  EXPECT_NE(facts[0].words.find("neighbouring threads' elements are 64 ints apart"),
            std::string::npos)
      << facts[0].words;
}

TEST_F(Evidence, RowReadIsCoalesced) {
  const float* in = device<float>(64 * 64);
  float* out = device<float>(64);
  EXPECT_TRUE(facts_of("uncoalesced_access", [&] { sum_columns<<<1, 64>>>(in, out, 64); }).empty());
}

TEST_F(Evidence, TransposedTileReadIsA32WayBankConflict) {
  const float* in = device<float>(32 * 32);
  float* out = device<float>(32 * 32);
  const auto facts =
      facts_of("bank_conflict", [&] { transpose_unpadded<<<1, dim3(32, 32)>>>(in, out); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].line, kTransposedRead);
  EXPECT_DOUBLE_EQ(facts[0].figure, 32.0);
  EXPECT_NE(facts[0].words.find("reading tile (float[32][32] in shared memory): 32-way bank "
                                "conflict"),
            std::string::npos)
      << facts[0].words;
  EXPECT_NE(facts[0].words.find("e.g. tile[32][33]"), std::string::npos) << facts[0].words;
}

TEST_F(Evidence, PaddedTileHasNoBankConflict) {
  const float* in = device<float>(32 * 32);
  float* out = device<float>(32 * 32);
  EXPECT_TRUE(
      facts_of("bank_conflict", [&] { transpose_padded<<<1, dim3(32, 32)>>>(in, out); }).empty());
}

TEST_F(Evidence, TwoThreadsStoringOneElementAlias) {
  float* out = device<float>(64);
  const auto facts = facts_of("aliasing_write", [&] { store_halves<<<2, 64>>>(out); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].line, kHalfStore);
  EXPECT_DOUBLE_EQ(facts[0].figure, 32.0);  // elements written by two threads (per block)
  EXPECT_NE(facts[0].words.find("thread (0,0,0) of block (0,0,0) and thread (1,0,0) of block "
                                "(0,0,0) both write buffer[0], and 31 more elements"),
            std::string::npos)
      << facts[0].words;
}

TEST_F(Evidence, AddingIntoOneElementIsNoAliasing) {
  float* out = device<float>(64);
  EXPECT_TRUE(facts_of("aliasing_write", [&] { add_halves<<<1, 64>>>(out); }).empty());
}

TEST_F(Evidence, SharedReadBeforeAnyWriteIsTold) {
  float* out = device<float>(64);
  const auto facts =
      facts_of("uninitialised_shared_read", [&] { reads_unwritten<<<1, 64>>>(out); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].line, kStaleRead);
  EXPECT_EQ(facts[0].words, "evidence_test.cu:" + std::to_string(kStaleRead) +
                                " (reads_unwritten), thread (0,0,0) of block (0,0,0): reads "
                                "cells[0] (cells + 0 bytes) in shared memory before any thread "
                                "of its block wrote it (its value is whatever the memory held), "
                                "and 63 more words like it");
}

TEST_F(Evidence, SharedReadAfterABarrierIsNot) {
  const float* in = device<float>(64);
  float* out = device<float>(64);
  EXPECT_TRUE(facts_of("uninitialised_shared_read", [&] {
                reads_after_barrier<<<1, 64>>>(in, out);
              }).empty());
}

TEST_F(Evidence, GridFourTimesTooLargeLeavesBlocksIdle) {
  const float* in = device<float>(256);
  float* out = device<float>(256);
  const auto facts = facts_of("idle_blocks", [&] { guarded_copy<<<16, 64>>>(in, out, 256); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_DOUBLE_EQ(facts[0].figure, 12.0);
  EXPECT_NE(facts[0].words.find("guarded_copy (launched at evidence_test.cu:"), std::string::npos);
  EXPECT_NE(facts[0].words.find("12 of 16 blocks (768 of 1,024 threads) wrote nothing to global "
                                "memory"),
            std::string::npos)
      << facts[0].words;
}

TEST_F(Evidence, RightGridAndAtomicsAreNotIdle) {
  const float* in = device<float>(256);
  float* out = device<float>(256);
  auto* count = device<unsigned>(1);
  EXPECT_TRUE(facts_of("idle_blocks", [&] { guarded_copy<<<4, 64>>>(in, out, 256); }).empty());
  EXPECT_TRUE(facts_of("idle_blocks", [&] { count_blocks<<<16, 64>>>(count); }).empty());
}

TEST_F(Evidence, InterleavedReductionDiverges) {
  const float* in = device<float>(4 * 256);
  float* out = device<float>(4);
  const auto facts = facts_of("divergence", [&] { reduce_interleaved<<<4, 256>>>(in, out); });
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].line, kInterleavedAdd);
  EXPECT_EQ(facts[0].kernel, "reduce_interleaved");
  // Per block of 8 warps: 255 additions in 47 warp-wide requests (16, 8, 4, 2, 1 lanes of every
  // warp, then lane 0 of 4, 2 and 1 warps) where 12 would do (4, 2, 1, 1, 1, 1, 1, 1).
  EXPECT_DOUBLE_EQ(facts[0].figure, 255.0 / 47.0);
  EXPECT_DOUBLE_EQ(facts[0].ideal, 255.0 / 12.0);
  EXPECT_EQ(facts[0].words,
            "evidence_test.cu:" + std::to_string(kInterleavedAdd) +
                " (reduce_interleaved): on average 5.4 of a warp's 32 threads make each read of "
                "sdata here (the others wait): the working threads are spread over the warps "
                "(every 2nd to 16th thread), so 141 warp-wide requests do what 36 would with them "
                "packed into whole warps; let consecutive threads do the work (threads 0 .. k-1: "
                "for a tree, if (tid < s) with sequential addressing) so that whole warps finish");
}

TEST_F(Evidence, SequentialReductionAndOneThreadDoNotDiverge) {
  const float* in = device<float>(4 * 256);
  float* out = device<float>(4);
  auto* count = device<unsigned>(1);
  EXPECT_TRUE(facts_of("divergence", [&] { reduce_sequential<<<4, 256>>>(in, out); }).empty());
  EXPECT_TRUE(facts_of("divergence", [&] { count_blocks<<<4, 256>>>(count); }).empty());
  // A guard that keeps the same lanes of every warp out of every request (a 1-column matrix).
  EXPECT_TRUE(facts_of("divergence", [&] { first_column_sums<<<4, 256>>>(in, out, 1); }).empty());
  // A guard that leaves most of the last warps' lanes out: a partial warp is not divergence.
  EXPECT_TRUE(facts_of("divergence", [&] { guarded_copy<<<1, 40>>>(in, out, 33); }).empty());
}

TEST_F(Evidence, SameWordsUnderEverySchedule) {
  const float* in = device<float>(64 * 64);
  float* out = device<float>(64 * 64);
  std::vector<std::string> seen;
  for (const auto schedule :
       {emu::Schedule::forward, emu::Schedule::reverse, emu::Schedule::random}) {
    use(schedule, 7, 2);
    sum_rows<<<1, 64>>>(in, out, 64);
    transpose_unpadded<<<1, dim3(32, 32)>>>(in, out);
    store_halves<<<4, 64>>>(out);
    reads_unwritten<<<3, 64>>>(out);
    reduce_interleaved<<<3, 256>>>(in, out);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::string words;
    for (const auto& fact : emu::take_evidence()) words += fact.words + "\n";
    seen.push_back(words);
  }
  EXPECT_EQ(seen[0], seen[1]);
  EXPECT_EQ(seen[0], seen[2]);
  EXPECT_NE(seen[0].find("both write"), std::string::npos) << seen[0];
  EXPECT_NE(seen[0].find("threads make each read of sdata"), std::string::npos) << seen[0];
}

TEST_F(Evidence, OffTurnsItOff) {
  emu::Settings settings{emu::Schedule::forward, 1, 2};
  settings.evidence = false;
  emu::configure(settings);
  const float* in = device<float>(64 * 64);
  float* out = device<float>(64);
  sum_rows<<<1, 64>>>(in, out, 64);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(emu::take_evidence().empty());
}

}  // namespace
