// must-fail: ReduceSum.Integers ReduceSum.Reals ReduceSum.Large
// emulation: nightly (its tests take about 47 s of CPU under the emulation)
// diagnosis: grid_too_small
// Known-wrong: one element per thread and n / 256 blocks, rounded down: the last n % 256 elements
// are never added, and below 256 elements there is no block at all (a launch of 0 blocks is
// refused). Right only when n is a multiple of 256.
#include "lab10.h"

__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float partial[256];
  const int tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

void reduce_sum(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));
  reduce_sum_kernel<<<n / 256, 256>>>(in, out, n);
}
