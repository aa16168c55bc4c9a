// Lab 7 reference solution: tiled matrix multiplication for any size (seed 002's mat_Mul, seed
// 004's exploration question 3): lab 6's kernel with a guard on every load and on the store.
#include "lab7.h"

#define TILE_WIDTH 16

// One thread per element of C, one TILE_WIDTH x TILE_WIDTH tile of C per block. The grid and the
// phase count are rounded up, so the last tiles hang over the edges of A, B and C: the parts that
// hang over are filled with zeros, which add nothing to the sums.
__global__ void MatMulAnyKernel(const float* A, const float* B, float* C, int m, int k, int n) {
  __shared__ float As[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];

  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;

  // No early return for threads outside C: they still load their share of the tiles (zeros or
  // values that threads inside C need) and must reach every __syncthreads().
  float Cvalue = 0;
  for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    int a_col = ph * TILE_WIDTH + tx;
    int b_row = ph * TILE_WIDTH + ty;
    // Zero, not "skip": a value left over from the previous phase would be added again.
    As[ty][tx] = (row < m && a_col < k) ? A[row * k + a_col] : 0.0f;
    Bs[ty][tx] = (b_row < k && col < n) ? B[b_row * n + col] : 0.0f;
    __syncthreads();  // the tiles are complete before anyone reads them

    for (int i = 0; i < TILE_WIDTH; ++i) Cvalue += As[ty][i] * Bs[i][tx];
    __syncthreads();  // everyone is done with these tiles before the next phase overwrites them
  }
  if (row < m && col < n) C[row * n + col] = Cvalue;
}

void matmul_tiled_any(const float* A, const float* B, float* C, int m, int k, int n) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  // Rounded up: a partial tile at the right or bottom edge still gets a block.
  dim3 dimGrid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
  MatMulAnyKernel<<<dimGrid, dimBlock>>>(A, B, C, m, k, n);
}
