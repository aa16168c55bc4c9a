// must-fail: Sgemm.Integers Sgemm.Reals
// diagnosis: unwritten grid_too_small
// Known wrong: a 32x32 tiled kernel that assumes m, k and n are multiples of the tile: the grid
// and the loop over k are rounded down, so the partial tiles at the edges of C are never written
// and the last k % 32 terms of every sum are lost.
#include "lab8.h"

#define TILE 32

__global__ void sgemm_kernel(const float* A, const float* B, float* C, int m, int k, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y;
  const int col = blockIdx.x * TILE + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < k / TILE; ++t) {  // rounded down: the last k % 32 terms are lost
    As[threadIdx.y][threadIdx.x] = A[row * k + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = sum;
}

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  const dim3 block(TILE, TILE);
  const dim3 grid(n / TILE, m / TILE);  // rounded down
  if (grid.x > 0 && grid.y > 0) sgemm_kernel<<<grid, block>>>(A, B, C, m, k, n);
}
