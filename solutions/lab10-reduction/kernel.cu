// Lab 10 reference: a tree reduction in shared memory, one atomicAdd per block.
#include "lab10.h"

constexpr int kThreads = 256;  // a power of two: the tree halves it down to 1

// Each thread first adds up its share of `in` (a grid-stride loop: a GPU-sized grid covers any
// n, and most of the additions happen in registers), then the block adds up its threads' sums in
// shared memory, halving the number of active threads at every step.
__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float partial[kThreads];
  const int tid = threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  float sum = 0.0f;
#pragma unroll 4
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + tid; i < n; i += stride) {
    sum += in[i];
  }
  partial[tid] = sum;
  __syncthreads();  // every thread's sum is in `partial` before the tree reads it
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();  // this step's sums are written before the next step reads them
  }
  // Blocks finish in any order and at the same time: only an atomic add keeps every block's sum.
  if (tid == 0) atomicAdd(out, partial[0]);
}

void reduce_sum(const float* in, float* out, int n) {
  // 8 blocks of 256 threads per SM fill it (2048 threads); the count is read once.
  static const int sms = [] {
    int device = 0, count = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
    return count > 0 ? count : 1;
  }();
  cudaMemset(out, 0, sizeof(float));  // the blocks add into *out, which holds NaN
  const long long needed = (n + kThreads - 1LL) / kThreads;
  const int blocks = static_cast<int>(needed < 8LL * sms ? needed : 8LL * sms);
  reduce_sum_kernel<<<blocks, kThreads>>>(in, out, n);
}
