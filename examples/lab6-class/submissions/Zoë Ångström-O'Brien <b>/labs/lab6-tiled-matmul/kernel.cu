// Sample: a correct kernel in a folder whose name has spaces, non-ASCII letters, a quote and
// markup (<b>): the grader must quote it in commands and escape it in HTML, CSV and JSON.
// Expected: graded, 100/100.
#include "lab6.h"

#define TILE_WIDTH 16

// P = M * N, one tile of P per block, one element per thread
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  const int bx = blockIdx.x, by = blockIdx.y;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int Row = by * TILE_WIDTH + ty;
  const int Col = bx * TILE_WIDTH + tx;

  float Pvalue = 0.0f;
  const int phases = Width / TILE_WIDTH;  // Width is a multiple of 32
  for (int ph = 0; ph < phases; ++ph) {
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();  // Mds and Nds are complete
#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();  // done reading them
  }
  P[Row * Width + Col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
