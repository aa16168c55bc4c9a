// must-fail: SingleBlock.Integers SingleBlock.Reals
// diagnosis: uninitialised_shared
// Known-wrong: each thread copies only A[y][x] and B[y][x] at its own position, so a block shaped
// like C copies all of A and B only when they are no larger than C; with a_cols larger than
// b_cols or a_rows, part of As and Bs is never filled and the sums use whatever was there.
#include "lab5.h"

#define MAX_WIDTH 32

__global__ void single_block_kernel(const float* A, const float* B, float* C, int a_rows,
                                    int a_cols, int b_cols) {
  __shared__ float As[MAX_WIDTH][MAX_WIDTH];
  __shared__ float Bs[MAX_WIDTH][MAX_WIDTH];
  int x = threadIdx.x;
  int y = threadIdx.y;
  if (x < a_cols) As[y][x] = A[y * a_cols + x];
  if (y < a_cols) Bs[y][x] = B[y * b_cols + x];
  __syncthreads();
  float Cvalue = 0;
  for (int k = 0; k < a_cols; ++k) Cvalue += As[y][k] * Bs[k][x];
  C[y * b_cols + x] = Cvalue;
}

void matmul_single_block(const float* A, const float* B, float* C, int a_rows, int a_cols,
                         int b_cols) {
  single_block_kernel<<<dim3(1, 1), dim3(b_cols, a_rows)>>>(A, B, C, a_rows, a_cols, b_cols);
}
