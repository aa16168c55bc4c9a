// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.KnownAnswers MatmulNaive.Large
// diagnosis: launch_config_invalid
// Known-wrong: a 128 x 128 block, meant as one thread per element of a 128 x 128 tile of P. A
// block has at most 1024 threads and this one asks for 16384, so every launch fails
// (cudaErrorInvalidConfiguration) and P is never written.
#include "lab2.h"

#define BLOCK_WIDTH 128

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
  dim3 block(BLOCK_WIDTH, BLOCK_WIDTH);
  dim3 grid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
