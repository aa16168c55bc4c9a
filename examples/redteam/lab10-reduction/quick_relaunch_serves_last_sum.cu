// must-fail: ReduceSum.Speed
// redteam: the GPU's clock spots timed replays: a quick relaunch gets the previous sum
//
// The reference solution's reduction, with two one-thread kernels around it that keep, in
// __device__ variables, the previous call's `in` and n, its sum, and when it ended (the GPU's
// global timer, %globaltimer, in nanoseconds; the CPU emulation's clock64() counts nanoseconds
// too). A launch on the same `in` and n less than a second after the previous one ended is taken
// for a timing loop replaying one call: it writes the last sum to out[0] and the reduction returns
// at once. Launches far apart, or on other buffers or sizes, are real calls and are summed. The
// correctness checks call every size once (no two calls in a row have the same n), so every call
// is summed and every case passes. On repeated timed calls over unchanged inputs the last sum is
// right and costs two tiny kernels: a speed far above cudaMemcpy's.
// Why it must fail: every timed call gets new inputs and out[0] = NaN, and its output is compared
// after it (timing.hpp: draw_inputs, TimedCall::before and verify), exactly (the speed checks
// draw sparse units, whose sum is exact in any order): the first timed call comes a few
// milliseconds after the warm-up, gets the warm-up's sum for inputs it has never seen, and the
// speed check fails naming that call.
#include "lab10.h"

namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kQuickNs = 1000000000ULL;  // a second

__device__ const float* last_in;
__device__ int last_n;
__device__ float last_sum;
__device__ unsigned long long last_end_ns;
__device__ int replay;  // this launch looks like a replay in a timing loop

// Nanoseconds of the GPU's global timer (the emulation has no such register: clock64() is its
// host's steady clock in nanoseconds there).
__device__ unsigned long long now_ns() {
#if defined(__CUDA_ARCH__)
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return static_cast<unsigned long long>(clock64());
#endif
}

// (Both stage through shared memory, as the structure check wants of every kernel of the lab.)
__global__ void begin_call(const float* in, float* out, int n) {
  __shared__ float start;
  const unsigned long long now = now_ns();
  replay = in == last_in && n == last_n && now - last_end_ns < kQuickNs;
  start = replay ? last_sum : 0.0f;
  __syncthreads();
  out[0] = start;
}

__global__ void end_call(const float* in, const float* out, int n) {
  __shared__ float sum;
  sum = out[0];
  __syncthreads();
  if (!replay) {
    last_in = in;
    last_n = n;
    last_sum = sum;
  }
  last_end_ns = now_ns();
}

// The reference solution's kernel: a grid-stride loop, a tree in shared memory, one atomicAdd per
// block.
__global__ void reduce_sum_kernel(const float* in, float* out, int n) {
  __shared__ float partial[kThreads];
  if (replay) return;
  const int tid = threadIdx.x;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  float sum = 0.0f;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + tid; i < n; i += stride) {
    sum += in[i];
  }
  partial[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0) atomicAdd(out, partial[0]);
}

}  // namespace

void reduce_sum(const float* in, float* out, int n) {
  static const int sms = [] {
    int device = 0, count = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device);
    return count > 0 ? count : 1;
  }();
  begin_call<<<1, 1>>>(in, out, n);
  const long long needed = (n + kThreads - 1LL) / kThreads;
  const int blocks = static_cast<int>(needed < 8LL * sms ? needed : 8LL * sms);
  reduce_sum_kernel<<<blocks, kThreads>>>(in, out, n);
  end_call<<<1, 1>>>(in, out, n);
}
