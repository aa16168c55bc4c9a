// must-fail: SingleBlock.OneBlock
// diagnosis: many_blocks
// Known-wrong: launches a grid of a_rows x b_cols blocks of one thread each, one block per element
// of C. Each block copies all of A and B into its own shared memory, so C comes out right, but
// the lab is one block sharing one copy.
#include "lab5.h"

#define MAX_WIDTH 32

__global__ void single_block_kernel(const float* A, const float* B, float* C, int a_rows,
                                    int a_cols, int b_cols) {
  __shared__ float As[MAX_WIDTH][MAX_WIDTH];
  __shared__ float Bs[MAX_WIDTH][MAX_WIDTH];
  for (int y = threadIdx.y; y < a_rows; y += blockDim.y)
    for (int x = threadIdx.x; x < a_cols; x += blockDim.x) As[y][x] = A[y * a_cols + x];
  for (int y = threadIdx.y; y < a_cols; y += blockDim.y)
    for (int x = threadIdx.x; x < b_cols; x += blockDim.x) Bs[y][x] = B[y * b_cols + x];
  __syncthreads();
  int row = blockIdx.y;
  int col = blockIdx.x;
  float Cvalue = 0;
  for (int k = 0; k < a_cols; ++k) Cvalue += As[row][k] * Bs[k][col];
  C[row * b_cols + col] = Cvalue;
}

void matmul_single_block(const float* A, const float* B, float* C, int a_rows, int a_cols,
                         int b_cols) {
  dim3 threads(1, 1);
  dim3 grid(b_cols, a_rows);
  single_block_kernel<<<grid, threads>>>(A, B, C, a_rows, a_cols, b_cols);
}
