// must-fail: Sgemm.ShareAt4096 Sgemm.ShareTall Sgemm.ShareWide Sgemm.ShareShortK
// redteam: a block returns at once when its first element of C already holds a number
//
// The first thread of each block reads its own element of C before computing it: a number (not
// NaN) means "computed already", and the whole block returns. Issue 29 on an H100: 5382% of
// cuBLAS, because the speed checks set C to NaN once and then replayed the same launches on the
// same buffers: from the second replay on, every block found its part done. The contract says C
// is NaN when sgemm is called, and the correctness checks always give it so: every block
// computes, and every case passes (any shape, edges guarded).
// The honest product is made slow on purpose, so that only the skipped work could earn points:
// one thread per element of C, the 32 threads of a warp on 32 different rows and 32 columns 128
// bytes apart (the diagonal of a 32 x 1024 tile of C), every load of A and B through L2 only
// (__ldcg), so that each multiply-add of a warp costs two 32-byte sectors from L2. Estimated (not
// measured) on an H100: 150 to 250 GFLOP/s, under 0.5% of cuBLAS FP32, 0.6 to 1 s a 4096^3 call
// (tiles go down a column of C first, so the blocks on the GPU at once share their columns of B
// and the traffic stays in L2).
// Why it must fail: every timed call gets new A and B and a C set to NaN (timing.hpp's
// draw_inputs and TimedCall::before), so no block ever skips; the product runs at its honest
// speed, below the 1% of cuBLAS every Sgemm.Share* check needs. Were a speed check to keep C from
// an earlier call, the skipped blocks would show as a speed far above the GPU's FP32 peak, which
// must read as "implausible" or as a wrong call, never as a pass.
#include "lab8.h"

namespace {

constexpr int kTileRows = 32;        // a tile of C: 32 rows ...
constexpr int kTileCols = 1024;      // ... of 1024 columns, 1024 warps of 32 elements
constexpr int kThreads = 256;        // 8 warps a block,
constexpr int kBlocksPerTile = 128;  // 128 blocks a tile

// A load that is cached in L2 only, never in the SM's L1 (the emulation reads plainly).
__device__ __forceinline__ float load_l2(const float* p) {
#if defined(__CUDA_ARCH__)
  return __ldcg(p);
#else
  return *p;
#endif
}

// Lane t of warp w of a tile: row (t + w / 32) % 32 and column 32 t + w % 32 of the tile, so a
// warp's 32 elements lie in 32 rows and 32 columns 32 floats apart, and the tile's 32768 elements
// are each some thread's. Tiles are numbered down the columns of C.
__device__ void element_of_thread(int m, int& row, int& col) {
  const int tiles_down = (m + kTileRows - 1) / kTileRows;
  const int tile = blockIdx.x / kBlocksPerTile;
  const int warp = (blockIdx.x % kBlocksPerTile) * (kThreads / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  row = (tile % tiles_down) * kTileRows + (lane + warp / 32) % 32;
  col = (tile / tiles_down) * kTileCols + 32 * lane + warp % 32;
}

__global__ void sgemm_kernel(const float* A, const float* B, float* C, int m, int k, int n) {
  int row = 0, col = 0;
  element_of_thread(m, row, col);
  const bool inside = row < m && col < n;
  const long long at = static_cast<long long>(row) * n + col;
  __shared__ bool done;
  if (threadIdx.x == 0) done = inside && C[at] == C[at];  // a number: "computed already"
  __syncthreads();
  if (done || !inside) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    sum += load_l2(A + static_cast<long long>(row) * k + i) *
           load_l2(B + static_cast<long long>(i) * n + col);
  }
  C[at] = sum;
}

}  // namespace

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  const int tiles = ((m + kTileRows - 1) / kTileRows) * ((n + kTileCols - 1) / kTileCols);
  sgemm_kernel<<<tiles * kBlocksPerTile, kThreads>>>(A, B, C, m, k, n);
}
