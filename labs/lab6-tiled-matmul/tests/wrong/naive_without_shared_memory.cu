// must-fail: TiledMatmul.SharedMemory
// diagnosis: no_shared_memory
// Known-wrong: the naive kernel of lab 2 (seed 000, Fig. 3.11) handed in unchanged. Its products
// are right, but it reads M and N straight from global memory: no tiles, no shared memory.
#include "lab6.h"

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < Width && col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k) Pvalue += M[row * Width + k] * N[k * Width + col];
    P[row * Width + col] = Pvalue;
  }
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(16, 16);
  dim3 dimGrid(width / 16, width / 16);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
