// Lab 6 reference solution: tiled matrix multiplication with shared memory (the textbook's tiled
// kernel, with its names).
#include "lab6.h"

// 16 x 16 tiles: 256 threads a block and 2 KB of shared memory for Mds and Nds together. Every
// width the lab takes is a multiple of 32, so the tiles cover P exactly.
#define TILE_WIDTH 16

// Each block computes one TILE_WIDTH x TILE_WIDTH tile of P, each thread one element of it. The
// block walks along a strip of M (to the right) and a strip of N (downwards) one tile at a time:
// each thread loads one element of each tile, and then every thread of the block reads the whole
// tile from shared memory. Every element of M and N is loaded from global memory Width /
// TILE_WIDTH times instead of Width times.
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * TILE_WIDTH + ty;
  int col = bx * TILE_WIDTH + tx;

  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    // Consecutive tx read consecutive addresses of M and of N: both loads coalesce.
    Mds[ty][tx] = M[row * Width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
    __syncthreads();  // the tiles are complete before anyone reads them

    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();  // everyone is done with these tiles before the next phase overwrites them
  }
  P[row * Width + col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);  // exact: width is a multiple of 32
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
