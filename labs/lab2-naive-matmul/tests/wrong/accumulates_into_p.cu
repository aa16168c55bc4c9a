// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.KnownAnswers MatmulNaive.Large
// diagnosis: output_not_initialised
// Known-wrong: the sum is accumulated straight into P, which nobody set to zero (cudaMalloc does
// not clear memory), instead of into a Pvalue that starts at 0.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width && col < Width) {
    for (int k = 0; k < Width; ++k) P[row * Width + col] += M[row * Width + k] * N[k * Width + col];
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
