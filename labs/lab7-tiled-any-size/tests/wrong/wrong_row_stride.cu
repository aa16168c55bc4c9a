// must-fail: AnySize.Integers AnySize.Reals AnySize.KnownAnswers AnySize.Large
// emulation: nightly (its tests take about 16 s of CPU under the emulation)
// diagnosis: wrong_row_stride reads_outside_inputs
// Known-wrong: A is m x k, but its load steps from row to row by m, A's row count, where its row
// length k belongs (A[row * m + a_col] instead of A[row * k + a_col]). Right whenever m == k
// (square A, whatever n is) and when A has one row; on the others the loads read the wrong
// elements of A (m < k), or past its end (m > k).
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
    int a_col = ph * TILE_WIDTH + tx;
    int b_row = ph * TILE_WIDTH + ty;
    As[ty][tx] = (row < m && a_col < k) ? A[row * m + a_col] : 0.0f;
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
