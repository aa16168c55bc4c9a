// must-fail: SingleBlock.SharedMemory
// diagnosis: no_shared_memory
// Known-wrong: one block with a thread per element of C, but every thread reads its row of A and
// column of B straight from global memory (the naive kernel in one block): right, but without
// the shared copies that are the point of the lab.
#include "lab5.h"

__global__ void single_block_kernel(const float* A, const float* B, float* C, int a_rows,
                                    int a_cols, int b_cols) {
  int row = threadIdx.y;
  int col = threadIdx.x;
  if (row < a_rows && col < b_cols) {
    float Cvalue = 0;
    for (int k = 0; k < a_cols; ++k) Cvalue += A[row * a_cols + k] * B[k * b_cols + col];
    C[row * b_cols + col] = Cvalue;
  }
}

void matmul_single_block(const float* A, const float* B, float* C, int a_rows, int a_cols,
                         int b_cols) {
  single_block_kernel<<<dim3(1, 1), dim3(b_cols, a_rows)>>>(A, B, C, a_rows, a_cols, b_cols);
}
