// must-fail: AnySize.Integers AnySize.Reals
// diagnosis: tile_not_zero_filled uninitialised_shared
// Known-wrong: the loads are guarded but out-of-range elements are skipped instead of set to 0,
// so in the last phase the tile still holds the previous phase's values there and they are added
// a second time (whenever k is over 16 and not a multiple of 16; below 16 the tile holds whatever
// was in shared memory).
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
    if (row < m && a_col < k) As[ty][tx] = A[row * k + a_col];
    if (b_row < k && col < n) Bs[ty][tx] = B[b_row * n + col];
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
