// must-fail: RowPerThread.Integers RowPerThread.Reals ColPerThread.Integers ColPerThread.Reals
// emulation: nightly (its tests take about 19 s of CPU under the emulation)
// diagnosis: out_of_bounds_write
// Known-wrong: the grids are rounded up to blocks of 64 threads but neither kernel checks its
// index, so when Width is not a multiple of 64 the extra threads write past the end of P.
#include "lab3.h"

__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  for (int col = 0; col < Width; ++col) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_row_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulRowKernel<<<(width + 63) / 64, 64>>>(M, N, P, width);
}

__global__ void MatrixMulColKernel(const float* M, const float* N, float* P, int Width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  for (int row = 0; row < Width; ++row) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_col_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulColKernel<<<(width + 63) / 64, 64>>>(M, N, P, width);
}
