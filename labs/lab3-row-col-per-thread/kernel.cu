// Lab 3: one row or one column of P per thread. Write the two kernels and their launchers; see
// README.md.
#include "lab3.h"

// TODO: each thread computes the whole row `row` of P.
//   1. row comes from blockIdx.x, blockDim.x and threadIdx.x; threads with row >= Width do nothing.
//   2. For every col from 0 to Width - 1: Pvalue = sum over k of M[row * Width + k] * N[k * Width +
//   col],
//      then P[row * Width + col] = Pvalue. Start each col's Pvalue at 0.
__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  // TODO
}

void matmul_row_per_thread(const float* M, const float* N, float* P, int width) {
  // TODO: one thread per row: a 1D grid of 1D blocks with at least width threads in all
  // (round up), then MatrixMulRowKernel<<<grid, block>>>(M, N, P, width).
}

// TODO: each thread computes the whole column `col` of P: the same loops, with the roles of row
// and col exchanged.
__global__ void MatrixMulColKernel(const float* M, const float* N, float* P, int Width) {
  // TODO
}

void matmul_col_per_thread(const float* M, const float* N, float* P, int width) {
  // TODO: one thread per column, as for the rows.
}
