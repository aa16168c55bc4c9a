// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.Large
// emulation: nightly (its tests take about 16 s of CPU under the emulation)
// diagnosis: transposed_result
// Known-wrong: row and col are swapped in the inner product (M[col][k] * N[k][row]), so P comes
// out transposed. The seeds' worked examples have symmetric products: only random inputs see it.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[col * Width + k] * N[k * Width + row];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
