// must-fail: ReduceSum.Integers ReduceSum.Large
// diagnosis: race one_block_sum
// (A small case of two blocks can lose the same block's sum at every run, the GPU's timing being
// the same each time: its output is then block 0's share, which the values cannot tell from a
// kernel where only block 0 adds. A check must still name the race: a large case's runs differ.)
// emulation: not built (the race is between blocks running at the same time: the CPU emulation
// runs a block's threads one at a time and its blocks almost never meet at the same add)
// Known-wrong: each block adds its sum into *out with a plain `*out += partial[0]` instead of
// atomicAdd. Blocks run at the same time: two can read the same old *out, each add its own sum
// and write back, and one of the two sums is lost. Which ones are lost changes from run to run.
#include "lab10.h"

__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float partial[256];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) *out += partial[0];
}

void reduce_sum(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
