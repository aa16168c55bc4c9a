// must-fail: MatmulNaive.Integers MatmulNaive.Reals MatmulNaive.Large
// diagnosis: size_fixed_in_code nan_everywhere
// Known-wrong: a slip of the keyboard squares the block index, blockIdx.y * blockIdx.y where
// blockIdx.y * blockDim.y belongs (and the same for the column). Right while the grid has one
// block a side (width 16 and below: the worked examples pass); beyond, block b starts at row b * b
// instead of b * 16, so blocks overlap and many elements of P get no thread at all.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockIdx.y + threadIdx.y;
  int col = blockIdx.x * blockIdx.x + threadIdx.x;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_naive(const float* M, const float* N, float* P, int width) {
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (width + 15) / 16);
  MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
