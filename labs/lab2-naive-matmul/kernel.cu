// Lab 2: naive matrix multiplication. Write the kernel and its launcher; see README.md.
#include "lab2.h"

// TODO: one thread computes one element of P.
//   1. Work out this thread's row (from the y indices) and col (from the x indices).
//   2. Threads outside the Width x Width matrix must do nothing.
//   3. Pvalue = the dot product of row `row` of M and column `col` of N:
//        M[row * Width + k] * N[k * Width + col], summed over k = 0 .. Width - 1.
//   4. Write Pvalue to P[row * Width + col].
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  // TODO
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  // TODO: choose a 2D block (dim3 block(16, 16) is a good start), round the grid up so that it
  // covers all width x width elements of P even when width is not a multiple of the block, and
  // launch MatrixMulKernel<<<grid, block>>>(M, N, P, width).
}
