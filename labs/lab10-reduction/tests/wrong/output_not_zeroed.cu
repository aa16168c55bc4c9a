// must-fail: ReduceSum.Integers ReduceSum.Reals ReduceSum.Large ReduceSum.SharedMemory
// emulation: nightly (its tests take about 19 s of CPU under the emulation)
// diagnosis: output_not_initialised
// Known-wrong: every block atomicAdds its sum into *out, but nothing sets *out to 0 first. It
// holds whatever was in memory (the grader fills it with NaN), and NaN plus anything is NaN.
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
  if (tid == 0) atomicAdd(out, partial[0]);
}

void reduce_sum(const float* in, float* out, int n) {
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
