// must-fail: sanitizer.memcheck
// emulation: nightly (its tests take about 19 s of CPU under the emulation)
// Known-wrong: both tiles live in one dynamic shared array, but the launch asks for the bytes of
// one tile only (TILE_WIDTH * TILE_WIDTH, not times sizeof(float) and not times two). Nds lies past
// the end of what the block was given; the results can still come out right, and memcheck (or,
// under the CPU emulation, the emulator's bounds checks) reports the shared accesses out of bounds.
#include "lab6.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  extern __shared__ float tiles[];
  float* Mds = tiles;
  float* Nds = tiles + TILE_WIDTH * TILE_WIDTH;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_WIDTH + ty;
  int col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty * TILE_WIDTH + tx] = M[row * Width + ph * TILE_WIDTH + tx];
    Nds[ty * TILE_WIDTH + tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += Mds[ty * TILE_WIDTH + k] * Nds[k * TILE_WIDTH + tx];
    __syncthreads();
  }
  P[row * Width + col] = Pvalue;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock, TILE_WIDTH * TILE_WIDTH>>>(M, N, P, width);
}
