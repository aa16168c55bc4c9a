// must-fail: RowPerThread.Integers RowPerThread.Reals RowPerThread.KnownAnswers
// emulation: nightly (its tests take about 35 s of CPU under the emulation)
// diagnosis: accumulator_not_reset
// Known-wrong: the row kernel sets Pvalue to 0 once, before its loop over the columns, so each
// element of a row also holds the sums of every column before it. The column kernel is right.
#include "lab3.h"

__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width) {
    float Pvalue = 0;  // the mistake: belongs inside the loop over col
    for (int col = 0; col < Width; ++col) {
      for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
      P[row * Width + col] = Pvalue;
    }
  }
}

void matmul_row_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulRowKernel<<<(width + 31) / 32, 32>>>(M, N, P, width);
}

__global__ void MatrixMulColKernel(const float* M, const float* N, float* P, int Width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < Width) {
    for (int row = 0; row < Width; ++row) {
      float Pvalue = 0;
      for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
      P[row * Width + col] = Pvalue;
    }
  }
}

void matmul_col_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulColKernel<<<(width + 31) / 32, 32>>>(M, N, P, width);
}
