// must-fail: AnySize.KnownAnswers
// diagnosis: reads_outside_inputs
// Known-wrong: no bounds checks on the loads. Where a tile hangs over the edge of A or B the
// kernel reads whatever lies there (the next row, or past the end) instead of zeros. The stray
// products are tiny against most sums, but Pascal's matrix times its signed form must give exact
// zeros off the diagonal, and there they show. The reads stay inside the harness's guard zones,
// which belong to the allocation, so compute-sanitizer's memcheck does not report them here.
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
    for (int i = 0; i < TILE_WIDTH; ++i) Cvalue += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[row * n + col] = Cvalue;
}

void matmul_tiled_any(const float* A, const float* B, float* C, int m, int k, int n) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
  MatMulAnyKernel<<<dimGrid, dimBlock>>>(A, B, C, m, k, n);
}
