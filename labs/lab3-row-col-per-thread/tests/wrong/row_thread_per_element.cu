// must-fail: RowPerThread.OneThreadPerRow
// emulation: nightly (its tests take about 23 s of CPU under the emulation)
// diagnosis: thread_per_element
// Known-wrong: the row launcher reuses lab 2's 2D grid with a thread per element of P, so every
// row is computed by Width threads at once, all writing the same values. The product is right;
// the design (and the work done: Width times too much) is not.
#include "lab3.h"

__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < Width) {
    for (int col = 0; col < Width; ++col) {
      float Pvalue = 0;
      for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
      P[row * Width + col] = Pvalue;
    }
  }
}

void matmul_row_per_thread(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulRowKernel<<<grid, block>>>(M, N, P, width);
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
