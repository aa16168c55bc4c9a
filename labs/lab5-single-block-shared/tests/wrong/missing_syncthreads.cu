// must-fail: sanitizer.racecheck
// diagnosis: race
// Known-wrong: no __syncthreads() between copying A and B into shared memory and using them, so a
// warp can read rows of Bs that another warp has not written yet. Whether the result comes out
// wrong depends on the order the warps happen to run in; compute-sanitizer always sees the race.
#include "lab5.h"

#define MAX_WIDTH 32

__global__ void single_block_kernel(const float* A, const float* B, float* C, int a_rows,
                                    int a_cols, int b_cols) {
  __shared__ float As[MAX_WIDTH][MAX_WIDTH];
  __shared__ float Bs[MAX_WIDTH][MAX_WIDTH];
  int tx = threadIdx.x;
  int ty = threadIdx.y;
  for (int y = ty; y < a_rows; y += blockDim.y)
    for (int x = tx; x < a_cols; x += blockDim.x) As[y][x] = A[y * a_cols + x];
  for (int y = ty; y < a_cols; y += blockDim.y)
    for (int x = tx; x < b_cols; x += blockDim.x) Bs[y][x] = B[y * b_cols + x];
  int row = ty;
  int col = tx;
  if (row < a_rows && col < b_cols) {
    float Cvalue = 0;
    for (int k = 0; k < a_cols; ++k) Cvalue += As[row][k] * Bs[k][col];
    C[row * b_cols + col] = Cvalue;
  }
}

void matmul_single_block(const float* A, const float* B, float* C, int a_rows, int a_cols,
                         int b_cols) {
  single_block_kernel<<<dim3(1, 1), dim3(b_cols, a_rows)>>>(A, B, C, a_rows, a_cols, b_cols);
}
