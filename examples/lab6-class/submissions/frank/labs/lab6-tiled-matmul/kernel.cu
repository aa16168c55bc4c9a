// Sample: does not compile. A typo: the result is stored from PValue, but the variable is Pvalue.
// Expected: compile error (nvcc: identifier "PValue" is undefined).
#include "lab6.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  P[Row * Width + Col] = PValue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
