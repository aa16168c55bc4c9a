// must-fail: TiledMatmul.Integers TiledMatmul.Reals TiledMatmul.Large
// emulation: nightly (its tests take about 40 s of CPU under the emulation)
// diagnosis: size_fixed_in_code
// Known-wrong: the tile loads step from row to row by WIDTH, the size the student first tried
// (#define WIDTH 64), instead of the width argument Width: the two names differ only in case.
// Right at width 64 only; below it the loads run past the end of M and N, above it they read the
// wrong elements. The same wrong output at every run: no race.
#include "lab6.h"

#define TILE_WIDTH 16
#define WIDTH 64

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[row * WIDTH + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * WIDTH + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  P[row * Width + col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
