// must-fail: ReduceSum.SharedMemory
// diagnosis: no_shared_memory
// Known-wrong for this lab: every thread atomicAdds its element straight into *out. The sum is
// right (atomics lose nothing), but there is no tree and no shared memory: all n additions queue
// up on one address, one after another, which is what the lab's tree avoids.
#include "lab10.h"

__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}

void reduce_sum(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));
  reduce_sum_kernel<<<(n + 255) / 256, 256>>>(in, out, n);
}
