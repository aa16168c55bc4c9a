// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.KnownAnswers MatmulNaive.Large
// emulation: nightly (its tests take about 19 s of CPU under the emulation)
// diagnosis: wrong_operand
// Known-wrong: a copy-paste slip reads N where M belongs (N[row * Width + k] * N[k * Width + col]),
// so P is N times N.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += N[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
