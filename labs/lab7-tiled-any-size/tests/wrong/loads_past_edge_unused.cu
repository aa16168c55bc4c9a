// must-fail: sanitizer.memcheck
// Known-wrong: the tile loads have no bounds checks; the inner loop stops at the edge instead, so
// the values loaded from past the end of A and B are never used and every result is right. The
// loads still read outside A and B: compute-sanitizer's memcheck names the line and the batch's
// memory pass fails the check; under the CPU emulation the emulator's bounds checks do the same.
#include "lab7.h"

#define TILE_WIDTH 16

__global__ void MatMulAnyKernel(const float* A, const float* B, float* C, int m, int k, int n) {
  __shared__ float As[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;
  float Cvalue = 0;
  for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    As[ty][tx] = A[row * k + ph * TILE_WIDTH + tx];
    Bs[ty][tx] = B[(ph * TILE_WIDTH + ty) * n + col];
    __syncthreads();
    int terms = k - ph * TILE_WIDTH < TILE_WIDTH ? k - ph * TILE_WIDTH : TILE_WIDTH;
    for (int i = 0; i < terms; ++i) Cvalue += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = Cvalue;
}

void matmul_tiled_any(const float* A, const float* B, float* C, int m, int k, int n) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
  MatMulAnyKernel<<<dimGrid, dimBlock>>>(A, B, C, m, k, n);
}
