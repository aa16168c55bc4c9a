// Lab 7: tiled matrix multiplication for any size. Write the kernel and its launcher; see
// README.md.
#include "lab7.h"

#define TILE_WIDTH 16

// TODO: C = A * B where A is m x k, B is k x n and C is m x n, for any sizes >= 1, with one
// thread per element of C and tiles of A and B in shared memory (lab 6's kernel, made safe at the
// edges).
__global__ void MatMulAnyKernel(const float* A, const float* B, float* C, int m, int k, int n) {
  // TODO: __shared__ tiles As and Bs of TILE_WIDTH x TILE_WIDTH floats.
  // TODO: row and col of this thread's element of C. Do NOT return when they are outside C:
  //       every thread must still help load the tiles and reach every __syncthreads().
  // TODO: float Cvalue = 0; then for each of the (k + TILE_WIDTH - 1) / TILE_WIDTH phases:
  //         As[ty][tx] = A[row][ph * TILE_WIDTH + tx] if that is inside A, else 0;
  //         Bs[ty][tx] = B[ph * TILE_WIDTH + ty][col] if that is inside B, else 0;
  //         __syncthreads(); add the TILE_WIDTH products As[ty][i] * Bs[i][tx]; __syncthreads();
  // TODO: write Cvalue to C[row * n + col] only if row < m and col < n.
}

void matmul_tiled_any(const float* A, const float* B, float* C, int m, int k, int n) {
  // TODO: blocks of TILE_WIDTH x TILE_WIDTH threads and a grid rounded up so that it covers all
  // n columns and all m rows of C, then launch MatMulAnyKernel<<<dimGrid, dimBlock>>>(...).
}
