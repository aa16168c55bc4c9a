// Sample: wrong, handed in as ivan.tar.gz. Only the first pair of tiles is accumulated (no phase
// loop). With 32 x 32 tiles that is the whole product at width 32 only: 1 of 5 integer cases, 5/100.
#include "lab6.h"

#define TILE_WIDTH 32

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  // load the tiles
  Mds[ty][tx] = M[Row * Width + tx];
  Nds[ty][tx] = N[ty * Width + Col];
  __syncthreads();

  float Pvalue = 0;
  for (int k = 0; k < TILE_WIDTH; ++k)
    Pvalue += Mds[ty][k] * Nds[k][tx];
  P[Row * Width + Col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
