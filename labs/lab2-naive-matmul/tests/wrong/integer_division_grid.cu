// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.KnownAnswers
// diagnosis: grid_too_small
// Known-wrong: the grid is width / 16 blocks (integer division), so the last rows and columns of
// P are never written when Width is not a multiple of 16, and below 16 no block is launched at all.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid(width / 16, width / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
