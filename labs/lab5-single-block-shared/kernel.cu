// Lab 5: matrix multiplication in one block, with A and B in shared memory. Write the kernel and
// its launcher; see README.md.
#include "lab5.h"

// The limit of this lab in every dimension: C at most 32 x 32, a_cols at most 32.
#define MAX_WIDTH 32

// TODO: one block computes the whole of C = A * B.
//   1. Declare two shared arrays, __shared__ float As[MAX_WIDTH][MAX_WIDTH] and Bs likewise.
//   2. Copy all of A (a_rows x a_cols) into As and all of B (a_cols x b_cols) into Bs. A and B
//      can have more elements than the block has threads (a_cols may be larger than C's sizes),
//      so let each thread copy several elements: loop over rows from threadIdx.y in steps of
//      blockDim.y and over columns from threadIdx.x in steps of blockDim.x.
//   3. __syncthreads(): no thread may read As or Bs until every thread has finished copying.
//   4. The thread at row = threadIdx.y, col = threadIdx.x, if it lies inside C, adds up
//      As[row][k] * Bs[k][col] for k = 0 .. a_cols-1 and stores the sum in C[row * b_cols + col].
__global__ void single_block_kernel(const float* A, const float* B, float* C, int a_rows,
                                    int a_cols, int b_cols) {
  // TODO
}

void matmul_single_block(const float* A, const float* B, float* C, int a_rows, int a_cols,
                         int b_cols) {
  // TODO: one block with a thread for each element of C, dim3 threads(b_cols, a_rows), and a
  // grid of a single block, dim3 grid(1, 1); then launch single_block_kernel<<<grid, threads>>>.
}
