// must-fail: ReduceSum.Speed
// redteam: a first one-thread kernel keeps out[0] when it already holds a number
//
// The contract says out[0] holds NaN when reduce_sum is called. A one-thread kernel looks at it
// first: a number means "summed already", so it sets a __device__ flag and the reduction kernel
// returns at once; NaN means a real call, so it sets out[0] to 0 and the reduction runs. The
// reduction itself is one block of 1024 threads: a tree in shared memory, right for every n, but
// on one SM of the GPU's hundred or more. Issue 29 on an H100: 111% of cudaMemcpy, because the
// speed check set out[0] to NaN once and then replayed the same launches on the same buffers:
// from the second replay on, the sum of the first was kept. The correctness checks always call
// it with out[0] = NaN, so the sum is always made and every case passes.
// Why it must fail: every timed call gets new inputs and out[0] = NaN (timing.hpp's draw_inputs
// and TimedCall::before), so the one block always does the whole sum, at a few percent of
// cudaMemcpy's bandwidth (one SM's share of it), far below ReduceSum.Speed's 50%. Were the check
// to keep a summed output between timed calls, the kept sum would show as a speed far above
// cudaMemcpy's, which must read as "implausible" or as a wrong call, never as a pass.
#include "lab10.h"

namespace {

constexpr int kThreads = 1024;  // one block, a power of two for the tree

__device__ int keep;  // out[0] held a number: this call does nothing

// (Staged through shared memory, as the structure check wants of every kernel of the lab.)
__global__ void look_at_out(float* out) {
  __shared__ float held;
  held = out[0];
  __syncthreads();
  keep = held == held;  // false only for NaN
  if (!keep) out[0] = 0.0f;
}

__global__ void reduce_one_block(const float* in, float* out, int n) {
  __shared__ float partial[kThreads];
  if (keep) return;
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

}  // namespace

void reduce_sum(const float* in, float* out, int n) {
  look_at_out<<<1, 1>>>(out);
  reduce_one_block<<<1, kThreads>>>(in, out, n);
}
