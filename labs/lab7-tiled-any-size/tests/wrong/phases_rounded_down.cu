// must-fail: AnySize.Integers AnySize.Reals AnySize.KnownAnswers
// diagnosis: last_tile_skipped
// Known-wrong: the number of phases is k / TILE_WIDTH, rounded down, so the last partial tile of
// k is dropped (and when k < TILE_WIDTH nothing is added at all).
#include "lab7.h"

#define TILE_WIDTH 16

__global__ void MatMulAnyKernel(const float* A, const float* B, float* C, int m, int k, int n) {
  __shared__ float As[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;
  float Cvalue = 0;
  for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
    int a_col = ph * TILE_WIDTH + tx;
    int b_row = ph * TILE_WIDTH + ty;
    As[ty][tx] = (row < m && a_col < k) ? A[row * k + a_col] : 0.0f;
    Bs[ty][tx] = (b_row < k && col < n) ? B[b_row * n + col] : 0.0f;
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
