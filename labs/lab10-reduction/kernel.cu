// Lab 10: parallel sum reduction. Write the kernel and its launcher; see README.md.
#include "lab10.h"

// TODO: a tree reduction in shared memory, one partial sum per block.
//   1. Each thread adds up its share of `in` in a local variable that starts at 0: start at its
//      global index, step by gridDim.x * blockDim.x (a grid-stride loop), stop at n.
//   2. It stores that sum in a __shared__ array of blockDim.x floats, and the block waits
//      (__syncthreads()) until every thread has stored its own.
//   3. The tree: for stride = blockDim.x / 2, blockDim.x / 4, ..., 1, threads tid < stride add
//      partial[tid + stride] into partial[tid]; every thread waits at __syncthreads() after
//      each step.
//   4. Thread 0 adds the block's sum partial[0] into *out with atomicAdd (blocks run at the
//      same time: a plain += loses sums).
__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  // TODO
}

void reduce_sum(const float* in, float* out, int n) {
  // TODO: set *out to 0 first (cudaMemset: the grader filled it with NaN), then launch
  // reduce_sum_kernel with 256 threads per block (a power of two, for the tree) and enough
  // blocks to cover n, at most a few per SM: the grid-stride loop covers the rest.
}
