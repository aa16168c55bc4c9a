// Sample: kim.zip holds this correct kernel plus an entry named ../../escaped.cu (zip-slip). An
// unpacker must not write outside its folder. Expected: bad archive (the whole zip refused).
#include "lab6.h"

#define TILE_WIDTH 32

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * TILE_WIDTH + ty;
  int col = bx * TILE_WIDTH + tx;

  float Pvalue = 0.0f;
  for (int ph = 0; ph < Width / TILE_WIDTH; ph++) {
    Mds[ty][tx] = M[row * Width + (ph * TILE_WIDTH + tx)];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
    __syncthreads();  // wait until the tiles are loaded

#pragma unroll
    for (int k = 0; k < TILE_WIDTH; k++) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();  // wait until everyone is done with the tiles
  }
  P[row * Width + col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH, 1);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
