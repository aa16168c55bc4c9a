// must-fail: TiledMatmul.Integers TiledMatmul.Reals
// emulation: nightly (its tests take about 18 s of CPU under the emulation)
// diagnosis: phase_as_inner_index
// Known-wrong: the inner product is indexed with the phase where k belongs
// (Mds[ty][ph] * Nds[ph][tx] inside the loop over k), so each phase adds TILE_WIDTH times one
// product instead of TILE_WIDTH different ones. Tiles of 32 keep ph inside the tiles up to width
// 1024 (32 phases); TiledMatmul.Large is not named: at 2048 and 4096 the kernel reads past its
// tiles on a GPU.
#include "lab6.h"

#define TILE_WIDTH 32

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[row * Width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][ph] * Nds[ph][tx];
    __syncthreads();
  }
  P[row * Width + col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
