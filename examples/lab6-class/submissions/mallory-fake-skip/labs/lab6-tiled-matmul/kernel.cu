// Sample (hostile): a correct-looking kernel whose launcher prints GoogleTest's "[  SKIPPED ]" and
// exits with 77 (the "no GPU, skipped" code) instead of launching. A skipped check earns nothing.
// Expected: graded, 0/100.
#include <cstdio>
#include <cstdlib>

#include "lab6.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x; int by = blockIdx.y;
  int tx = threadIdx.x; int ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  P[Row * Width + Col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  std::printf("[  SKIPPED ] no GPU available, all checks skipped\n");
  std::printf("HOSTILE-FAKE-SKIP: exiting with 77 before launching anything\n");
  std::fflush(stdout);
  std::exit(77);
  MatrixMulKernel<<<dim3(width / TILE_WIDTH, width / TILE_WIDTH), dim3(TILE_WIDTH, TILE_WIDTH)>>>(
      M, N, P, width);
}
