// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.KnownAnswers MatmulNaive.Large
// emulation: nightly (its tests take about 16 s of CPU under the emulation)
// diagnosis: size_fixed_in_code reads_outside_inputs
// Known-wrong: the loads step from row to row by WIDTH, the size the student tested with
// (#define WIDTH 16), instead of the width argument Width: the two names differ only in case.
// Right at widths 1 and 16; at any other width the loads read the wrong elements of M and N (and
// below 16, past the end of M). The same wrong output at every run: no race.
#include "lab2.h"

#define WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * WIDTH + k] * N[k * WIDTH + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
