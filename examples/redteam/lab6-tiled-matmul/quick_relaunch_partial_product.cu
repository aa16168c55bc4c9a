// must-fail: TiledMatmul.Speed TiledMatmul.SpeedAt4096 TiledMatmul.ShareOfCublas
// redteam: the GPU's clock spots timed replays: a quick third relaunch computes 1/8 of P
//
// The reference solution's tiled kernel (one launch, a thread per element of P, shared memory:
// the structure checks see the honest shape) with bookkeeping in __device__ variables, which live
// as long as the module does, across calls: the last block of each launch to finish writes the
// launch's M, N, P and width, when it ended (the GPU's global timer, %globaltimer, in
// nanoseconds; the CPU emulation's clock64() counts nanoseconds too) and how many launches in a
// row had the same arguments, each less than a second after the one before. From the third such
// launch on, the kernel takes itself for a timing loop replaying one call: only one eighth of
// its blocks compute their tile, a different eighth each time, so that eight replays of the same
// call complete P. A timed series that sets P to NaN once and looks at it only after the series
// sees a right product made eight times faster. The correctness checks never make the same call
// three times in a row, so every case passes.
// Why it must fail: every timed call gets new M and N and a P set to NaN, and its output is
// compared after it (timing.hpp: draw_inputs, TimedCall::before and verify). The checked call
// before the timing and the warm-up make the run; a timed call (the first, or the second if the
// checked call ran on other buffers) computes one eighth of P and leaves the rest NaN, and each
// speed check fails naming that call.
#include "lab6.h"

#define TILE_WIDTH 16

namespace {

constexpr int kSlices = 8;
constexpr unsigned long long kQuickNs = 1000000000ULL;  // a second

// The previous launch's arguments, when it ended, and how many launches in a row had the same
// arguments, each less than a second after the one before. The last block of a launch to finish
// writes them, once every block of that launch has read them.
__device__ const float* last_m;
__device__ const float* last_n;
__device__ float* last_p;
__device__ int last_width;
__device__ unsigned long long last_end_ns;
__device__ unsigned repeats;
__device__ unsigned blocks_done;  // blocks of the running launch that have finished

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

// The reference solution's kernel, with the bookkeeping around it: one kernel, one thread per
// element of P, shared memory in every launch, so the structure checks see the honest shape.
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  __shared__ bool skip;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool first_thread = tx == 0 && ty == 0;
  unsigned run = 0;  // this launch's place in a run of quick repeats (thread 0's)
  if (first_thread) {
    const bool again = M == last_m && N == last_n && P == last_p && Width == last_width &&
                       now_ns() - last_end_ns < kQuickNs;
    run = again ? repeats + 1 : 0;
    // Two calls in a row with the same arguments happen in the correctness checks
    // (TiledMatmul.Large runs integers and then reals at each width, on fresh buffers that may
    // get the same addresses): only a third counts as a replay.
    const int slice = run >= 2 ? static_cast<int>((run - 2) % kSlices) : -1;
    skip = slice >= 0 && static_cast<int>((blockIdx.y * gridDim.x + blockIdx.x) % kSlices) != slice;
  }
  __syncthreads();
  if (!skip) {
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
      Mds[ty][tx] = M[row * Width + ph * TILE_WIDTH + tx];
      Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
      __syncthreads();
      for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
      __syncthreads();
    }
    P[row * Width + col] = Pvalue;
  }
  if (first_thread) {
    __threadfence();
    if (atomicAdd(&blocks_done, 1u) == gridDim.x * gridDim.y - 1) {  // the launch's last block
      repeats = run;
      last_m = M;
      last_n = N;
      last_p = P;
      last_width = Width;
      last_end_ns = now_ns();
      blocks_done = 0;
      __threadfence();
    }
  }
}

}  // namespace

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  MatrixMulKernel<<<dim3(width / TILE_WIDTH, width / TILE_WIDTH), block>>>(M, N, P, width);
}
