// must-fail: TiledMatmul.ThreadsPerElement
// diagnosis: extra_blocks
// Known-wrong (for the launch shape): the grid is "rounded up" with (width + TILE_WIDTH) /
// TILE_WIDTH, which adds a whole row and column of blocks when width is a multiple of the tile.
// Bounds checks keep the product right, but 1 in 17 blocks of each row and column only waits.
#include "lab6.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = row < Width ? M[row * Width + ph * TILE_WIDTH + tx] : 0.0f;
    Nds[ty][tx] = col < Width ? N[(ph * TILE_WIDTH + ty) * Width + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  if (row < Width && col < Width) P[row * Width + col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid((width + TILE_WIDTH) / TILE_WIDTH, (width + TILE_WIDTH) / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
