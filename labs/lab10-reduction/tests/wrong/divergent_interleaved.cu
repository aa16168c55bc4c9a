// must-fail: ReduceSum.Speed
// diagnosis: slow_kernel divergent_warps
// evidence: divergence
// Known-wrong (for speed): the block's tree uses interleaved addressing, if (tid % (2 * s) == 0),
// so the working threads are every 2nd, then every 4th, ... thread of every warp: each warp runs
// the step for the few threads that work in it. One element per thread and a modulo in the loop
// add to it. The sum is right, but far from the input's bandwidth.
#include "lab10.h"

__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float sdata[256];
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];  // the mistake
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, sdata[0]);
}

void reduce_sum(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));  // the blocks add into *out
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
