// Lab 6: tiled matrix multiplication with shared memory. Write the kernel and its launcher; see
// README.md.
#include "lab6.h"

#define TILE_WIDTH 16

// TODO: P = M * N for Width x Width matrices, one thread per element of P, with M and N read
// through shared memory one tile at a time.
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  // TODO: declare the two tiles: __shared__ float Mds[TILE_WIDTH][TILE_WIDTH]; and Nds likewise.
  // TODO: work out row and col of this thread's element of P (blockIdx, threadIdx, TILE_WIDTH).
  // TODO: float Pvalue = 0; then for each phase ph, from 0 to Width / TILE_WIDTH - 1:
  //         load M[row][ph * TILE_WIDTH + tx] into Mds[ty][tx]
  //         and N[ph * TILE_WIDTH + ty][col] into Nds[ty][tx];
  //         __syncthreads();  (the whole tile is loaded before anyone reads it)
  //         add Mds[ty][k] * Nds[k][tx] for k from 0 to TILE_WIDTH - 1 to Pvalue;
  //         __syncthreads();  (everyone is done with the tile before the next phase overwrites it)
  // TODO: write Pvalue to P[row * Width + col].
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  // TODO: blocks of TILE_WIDTH x TILE_WIDTH threads, width / TILE_WIDTH blocks in each direction,
  // then launch MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width).
}
