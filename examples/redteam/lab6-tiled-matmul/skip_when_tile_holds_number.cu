// must-fail: TiledMatmul.Speed TiledMatmul.SpeedAt4096 TiledMatmul.ShareOfCublas
// redteam: a block returns when its tile's first element of P already holds a number
//
// Each block first reads the first element of its 16 x 16 tile of P. A number (not NaN) means
// "computed already", and the whole block returns; NaN means a real call, and the block computes
// its tile. The honest product is the naive one with threadIdx.x walking down a column (lab 2's
// tests/wrong/uncoalesced.cu): right, but its reads of M are scattered. Issue 29 on an H100: lab
// 8's kernel with the same trick scored 5382% of cuBLAS, and lab 6's likewise, because the speed
// checks set P to NaN once and replayed the same launches on the same buffers: from the second
// replay on, every block found its tile done. The correctness checks always give a P full of NaN,
// so every tile is computed and every case passes.
// Why it must fail: every timed call gets new M and N and a P set to NaN (timing.hpp's
// draw_inputs and TimedCall::before), so no block ever skips; the product then runs at its honest
// speed, about a sixth of the naive kernel's (docs/known-wrong-h100.md, lab2_uncoalesced: 17%)
// and a few percent of cuBLAS: below TiledMatmul.Speed's and SpeedAt4096's 1.2x the naive
// kernel, and below ShareOfCublas's 5%. Were a speed check to keep P from an earlier call, the
// skipped blocks would show as a speed far above the GPU's, which must read as "implausible" or
// as a wrong call, never as a pass.
#include "lab6.h"

#define TILE_WIDTH 16

namespace {

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  const int first_row = blockIdx.y * TILE_WIDTH, first_col = blockIdx.x * TILE_WIDTH;
  __shared__ bool done;  // read by one thread before any thread writes P
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    const float first = P[first_row * Width + first_col];
    done = first == first;  // a number: this tile is "done already"
  }
  __syncthreads();
  if (done) return;
  const int row = first_row + threadIdx.x;  // row from x: a warp reads 16 rows of M at once
  const int col = first_col + threadIdx.y;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

}  // namespace

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  const dim3 grid(width / TILE_WIDTH, width / TILE_WIDTH);  // width is a multiple of 32
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
