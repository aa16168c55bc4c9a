// must-fail: ColPerThread.Integers ColPerThread.Reals
// emulation: nightly (its tests take about 29 s of CPU under the emulation)
// diagnosis: transposed_result
// Known-wrong: the column kernel writes its result to P[col * Width + row], so P comes out
// transposed. The seeds' worked examples have symmetric products, so only random inputs see it.
#include "lab3.h"

__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width) {
    for (int col = 0; col < Width; ++col) {
      float Pvalue = 0;
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
      P[col * Width + row] = Pvalue;  // the mistake: row and col exchanged
    }
  }
}

void matmul_col_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulColKernel<<<(width + 31) / 32, 32>>>(M, N, P, width);
}
