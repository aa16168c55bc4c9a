// must-fail: RowPerThread.Integers ColPerThread.Integers
// diagnosis: launch_config_invalid
// Known-wrong: each launcher starts one block of Width threads. Right up to Width 1024; above it
// the block is over CUDA's limit of 1024 threads, so the launch is refused and nothing runs. The
// contract allows any width (the checks run Width 1100).
#include <cstdio>

#include "lab3.h"

__global__ void MatrixMulRowKernel(const float* M, const float* N, float* P, int Width) {
  int row = threadIdx.x;
  if (row < Width) {
    for (int col = 0; col < Width; ++col) {
      float Pvalue = 0;
      for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
      P[row * Width + col] = Pvalue;
    }
  }
}

__global__ void MatrixMulColKernel(const float* M, const float* N, float* P, int Width) {
  int col = threadIdx.x;
  if (col < Width) {
    for (int row = 0; row < Width; ++row) {
      float Pvalue = 0;
      for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
      P[row * Width + col] = Pvalue;
    }
  }
}

void matmul_row_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulRowKernel<<<1, width>>>(M, N, P, width);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) printf("row launch: %s\n", cudaGetErrorString(err));
}

void matmul_col_per_thread(const float* M, const float* N, float* P, int width) {
  MatrixMulColKernel<<<1, width>>>(M, N, P, width);
  cudaDeviceSynchronize();
}
