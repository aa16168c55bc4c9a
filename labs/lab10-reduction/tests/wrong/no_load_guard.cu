// must-fail: sanitizer.memcheck
// Known-wrong: the grid is rounded up, but the load has no `i < n ? in[i] : 0`: it assumes n is
// a multiple of the block, so the threads past the end of the last block read past the end of
// `in` and add whatever lies there to the sum. In the lab program those reads land in the
// harness's guard zones, whose pattern is a tiny float (about -1e-18) that vanishes when added to
// the sums: the values come out right, and only a memory checker sees the reads (on a GPU
// compute-sanitizer's memcheck, under the CPU emulation its bounds checks).
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
