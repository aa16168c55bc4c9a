// Lab 10 bonus reference: float4 loads and warp shuffles; shared memory holds only one sum per
// warp, and the block waits at a single __syncthreads().
#include <cstdint>

#include "lab10_bonus.h"

constexpr int kThreads = 256;

// The 32 lanes' values added up in 5 shuffles: after them lane 0 holds the warp's sum.
__device__ float warp_sum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(0xffffffffu, value, offset);
  }
  return value;
}

__global__ void reduce_sum_fast_kernel(const float* in, float* out, int n, bool vec) {
  __shared__ float warp_sums[kThreads / 32];
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  float sum = 0.0f;
  long long scalar_from = 0;
  if (vec) {
    // 16 bytes per load: a quarter of the load instructions for the same bytes.
    const float4* in4 = reinterpret_cast<const float4*>(in);
    const long long count4 = n / 4;
    for (long long i = first; i < count4; i += stride) {
      const float4 v = in4[i];
      sum += (v.x + v.y) + (v.z + v.w);
    }
    scalar_from = count4 * 4;
  }
  for (long long i = scalar_from + first; i < n; i += stride) sum += in[i];  // the last n % 4

  sum = warp_sum(sum);
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();  // every warp's sum stored before the first warp reads them
  if (warp == 0) {
    sum = warp_sum(lane < kThreads / 32 ? warp_sums[lane] : 0.0f);
    if (lane == 0) atomicAdd(out, sum);
  }
}

void reduce_sum_fast(const float* in, float* out, int n) {
  static const int sms = [] {
    int device = 0, count = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
    return count > 0 ? count : 1;
  }();
  cudaMemset(out, 0, sizeof(float));
  const bool vec = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const long long needed = (n + kThreads - 1LL) / kThreads;
  const int blocks = static_cast<int>(needed < 8LL * sms ? needed : 8LL * sms);
  reduce_sum_fast_kernel<<<blocks, kThreads>>>(in, out, n, vec);
}
