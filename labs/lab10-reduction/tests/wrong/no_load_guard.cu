// must-fail: ReduceSum.Integers ReduceSum.Reals ReduceSum.Large
// must-fail: sanitizer.memcheck
// diagnosis: reads_outside_inputs
// Known-wrong: the grid is rounded up, but the load has no `i < n ? in[i] : 0`: it assumes n is
// a multiple of the block, so the threads past the end of the last block read past the end of
// `in` and add whatever lies there to the sum.
#include "lab10.h"

__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float partial[256];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = in[i];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

void reduce_sum(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
