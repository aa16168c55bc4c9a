// Lab 3 reference solution: one row, or one column, of P per thread (exercise 1 of the textbook's
// chapter 3).
#include "lab3.h"

// Only Width threads in all: with one warp per block the few warps are spread over as many
// multiprocessors as possible instead of crowding onto a handful of them.
#define BLOCK_SIZE 32

// Each thread computes row `row` of P: it reads that row of M Width times and all of N.
__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width) {
    for (int col = 0; col < Width; ++col) {
      float Pvalue = 0;  // a fresh sum for every element of the row
      for (int k = 0; k < Width; ++k) {
        Pvalue += M[row * Width + k] * N[k * Width + col];
      }
      P[row * Width + col] = Pvalue;
    }
  }
}

void matmul_row_per_thread(const float* M, const float* N, float* P, int width) {
  // Round up so that every row has a thread; the guard in the kernel stops the extra ones.
  int blocks = (width + BLOCK_SIZE - 1) / BLOCK_SIZE;
  MatrixMulRowKernel<<<blocks, BLOCK_SIZE>>>(M, N, P, width);
}

// Each thread computes column `col` of P: it reads all of M and that column of N Width times.
// Neighbouring threads take neighbouring columns, so a warp's reads of N and writes of P are
// neighbouring addresses, and all its threads read the same element of M at the same time.
__global__ void MatrixMulColKernel(const float* M, const float* N, float* P, int Width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < Width) {
    for (int row = 0; row < Width; ++row) {
      float Pvalue = 0;
      for (int k = 0; k < Width; ++k) {
        Pvalue += M[row * Width + k] * N[k * Width + col];
      }
      P[row * Width + col] = Pvalue;
    }
  }
}

void matmul_col_per_thread(const float* M, const float* N, float* P, int width) {
  int blocks = (width + BLOCK_SIZE - 1) / BLOCK_SIZE;
  MatrixMulColKernel<<<blocks, BLOCK_SIZE>>>(M, N, P, width);
}
