// must-fail: ReduceSum.Speed
// redteam: a cache of sums in __device__ memory, keyed by n and 32 sampled input values
//
// __device__ arrays (they live as long as the module does, across calls) hold the last 8 problems
// seen: n, 32 values sampled across the input, and the sum. A one-warp kernel samples the input
// first; when n and all 32 samples match an entry, it writes that entry's sum to out[0] and the
// reduction kernel returns at once. Otherwise the reduction runs (one block of 1024 threads: a
// tree in shared memory, right for every n, but on one SM) and a last one-warp kernel stores the
// problem and its sum. A speed check that times the same inputs again and again (or a few
// sets of inputs in turn) gets every timed call served from the cache, right, in a few
// microseconds. The correctness checks draw new inputs for every case: no entry matches, the sum
// is made, and every case passes.
// Why it must fail: every timed call gets inputs drawn for it (timing.hpp's draw_inputs, a new
// seed each round) and its sum is compared exactly (the speed checks draw sparse units, +1 or -1
// at one element in 64, whose sum is exact in any order). Mostly zeros, the 32 samples often
// match an earlier entry: the stale sum it then serves is wrong and the call fails; otherwise
// the one block does the whole sum, at a few percent of cudaMemcpy's bandwidth, far below
// ReduceSum.Speed's 50%. A figure beyond the GPU's bandwidth would read "implausible", which the
// must-fail test counts as NOT caught: the verification of the timed calls must catch it first.
#include "lab10.h"

namespace {

constexpr int kThreads = 1024;  // one block, a power of two for the tree
constexpr int kSamples = 32;
constexpr int kEntries = 8;

__device__ int cached_n[kEntries];  // 0: an empty entry (n >= 1)
__device__ float cached_samples[kEntries][kSamples];
__device__ float cached_sum[kEntries];
__device__ unsigned next_entry;
__device__ float samples_now[kSamples];
__device__ int served;  // this call's sum came from the cache

// One warp: lane s samples in[s * n / 32] (through shared memory, as the structure check wants
// of every kernel of the lab), lane 0 looks for an entry with the same n and samples.
__global__ void look_up(const float* in, float* out, int n) {
  __shared__ float sampled[kSamples];
  const int s = threadIdx.x;
  sampled[s] = in[static_cast<long long>(s) * n / kSamples];
  samples_now[s] = sampled[s];
  __syncthreads();
  if (s != 0) return;
  served = 0;
  for (int e = 0; e < kEntries && !served; ++e) {
    bool same = cached_n[e] == n;
    for (int i = 0; i < kSamples && same; ++i) same = cached_samples[e][i] == sampled[i];
    if (same) {
      out[0] = cached_sum[e];
      served = 1;
    }
  }
}

__global__ void reduce_one_block(const float* in, float* out, int n) {
  __shared__ float partial[kThreads];
  if (served) return;
  const int tid = threadIdx.x;
  float sum = 0.0f;
  for (int i = tid; i < n; i += kThreads) sum += in[i];
  partial[tid] = sum;
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[0] = partial[0];
}

__global__ void remember(const float* out, int n) {
  __shared__ unsigned entry;
  if (served) return;
  const int s = threadIdx.x;
  if (s == 0) entry = next_entry++ % kEntries;
  __syncthreads();
  cached_samples[entry][s] = samples_now[s];
  if (s == 0) {
    cached_n[entry] = n;
    cached_sum[entry] = out[0];
  }
}

}  // namespace

void reduce_sum(const float* in, float* out, int n) {
  look_up<<<1, kSamples>>>(in, out, n);
  reduce_one_block<<<1, kThreads>>>(in, out, n);
  remember<<<1, kSamples>>>(out, n);
}
