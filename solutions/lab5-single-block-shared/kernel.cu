// Lab 5 reference solution: C = A * B in a single block, with the whole of A and B copied into
// shared memory first (seed 003, "A Single Block Shared Memory Implementation").
#include "lab5.h"

// The limit of this lab in every dimension: C at most 32 x 32, a_cols at most 32.
#define MAX_WIDTH 32

__global__ void single_block_kernel(const float* A, const float* B, float* C, int a_rows,
                                    int a_cols, int b_cols) {
  __shared__ float As[MAX_WIDTH][MAX_WIDTH];
  __shared__ float Bs[MAX_WIDTH][MAX_WIDTH];
  int tx = threadIdx.x;
  int ty = threadIdx.y;

  // The block has one thread per element of C, which can be fewer than the elements of A or B
  // (a_cols larger than a_rows or b_cols): each thread copies every element it is given by
  // stepping across A and B in strides of the block's size, so nothing is left out.
  for (int y = ty; y < a_rows; y += blockDim.y)
    for (int x = tx; x < a_cols; x += blockDim.x) As[y][x] = A[y * a_cols + x];
  for (int y = ty; y < a_cols; y += blockDim.y)
    for (int x = tx; x < b_cols; x += blockDim.x) Bs[y][x] = B[y * b_cols + x];

  // Every thread reads rows and columns that other threads copied: wait until all are in.
  __syncthreads();

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
  dim3 threads(b_cols, a_rows);  // one thread per element of C
  dim3 grid(1, 1);               // and a single block: shared memory is per block
  single_block_kernel<<<grid, threads>>>(A, B, C, a_rows, a_cols, b_cols);
}
