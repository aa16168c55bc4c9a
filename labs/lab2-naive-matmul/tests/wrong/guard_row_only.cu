// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.KnownAnswers
// diagnosis: out_of_bounds_write
// Known-wrong: the grid is rounded up, but the guard tests only the row (if (row < Width)), so
// when Width is not a multiple of 16 the threads with col >= Width still write: P[row * Width +
// col] is then the first element of the next row, which another thread also writes, and the
// last row's extra threads write past the end of P.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
