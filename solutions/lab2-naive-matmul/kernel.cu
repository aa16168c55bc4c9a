// Lab 2 reference solution: naive matrix multiplication, one thread per element of P
// (the textbook's MatrixMulKernel, Fig. 3.11).
#include "lab2.h"

#define BLOCK_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  // col comes from threadIdx.x: the threads of a warp then take neighbouring columns, so their
  // reads of N (and their writes of P) are neighbouring addresses, which the hardware coalesces.
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  // The grid is rounded up, so the last blocks overhang P: those threads must do nothing.
  if (row < Width && col < Width) {
    float Pvalue = 0;  // a fresh sum for every element, in a register
    for (int k = 0; k < Width; ++k) {
      Pvalue += M[row * Width + k] * N[k * Width + col];
    }
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
  // Round up: width = 33 needs 3 blocks across, not 33 / 16 = 2.
  dim3 grid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
