// must-fail: sanitizer.racecheck
// diagnosis: race
// Known-wrong: no __syncthreads() between the steps of the tree, so a thread can add
// partial[tid + s] before the thread that owns it has added its own pair in the step before
// (threads of other warps run at their own pace). Whether the sum comes out wrong depends on the
// order the warps happen to run in; compute-sanitizer always sees the race.
#include "lab10.h"

__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float partial[256];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + tid;
  partial[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

void reduce_sum(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
