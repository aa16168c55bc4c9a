// Sample (hostile): the kernel spins forever on the GPU. Every check must be timed out and the
// batch must go on. Expected: graded, 0/100. Prints "HOSTILE-LOOP: started" only.
#include <cstdio>

#include "lab6.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  while (1) {
    __nanosleep(1000);  // an asm side effect each time round: the compiler must keep the loop
  }
  P[Row * Width + Col] = 0;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  std::printf("HOSTILE-LOOP: started a kernel that never ends\n");
  std::fflush(stdout);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
}
