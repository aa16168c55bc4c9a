// must-fail: ReduceSum.Integers ReduceSum.Reals ReduceSum.Large
// emulation: nightly (its tests take about 48 s of CPU under the emulation)
// diagnosis: one_block_sum
// Known-wrong: every block reduces its 256 elements, but only block 0 stores its sum: the other
// blocks' sums are dropped. Right while n fits in one block (n <= 256), wrong above.
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
  if (blockIdx.x == 0 && tid == 0) *out = partial[0];
}

void reduce_sum(const float* in, float* out, int n) {
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
