// must-fail: MatmulNaive.Speed
// diagnosis: slow_kernel uncoalesced_access
// evidence: uncoalesced_access
// Known-wrong (for speed): row comes from threadIdx.x, so the threads of a warp take 16 different
// rows and each of their reads of M lands in a different memory segment. The product is right.
#include "lab2.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;  // row from x: the mistake
  int col = blockIdx.y * blockDim.y + threadIdx.y;
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
