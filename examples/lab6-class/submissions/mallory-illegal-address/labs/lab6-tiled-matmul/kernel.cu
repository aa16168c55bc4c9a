// Sample (hostile): every thread writes 256 GiB before P: cudaErrorIllegalAddress, which spoils the
// process's CUDA context. Each check must fail on its own. Expected: graded, 0/100.
#include <cstdio>

#include "lab6.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  P[(long long)Row * Width + Col - (1LL << 36)] = M[Row * Width + Col];
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
  cudaError_t err = cudaDeviceSynchronize();
  if (err == cudaSuccess) {
    std::printf("HOSTILE-ILLEGAL-ADDRESS: succeeded: wrote 256 GiB before P and nobody noticed\n");
  } else {
    std::printf("HOSTILE-ILLEGAL-ADDRESS: failed: %s\n", cudaGetErrorString(err));
  }
  std::fflush(stdout);
}
