// Lab 4: matrix-vector multiplication, A = B * C. Write the kernel and its launcher; see README.md.
#include "lab4.h"

// TODO: one thread per element of the output vector A.
//   Work out this thread's index i from blockIdx.x, blockDim.x and threadIdx.x. If i < n, compute
//   the dot product of row i of B (B[i * n + j] for j = 0 .. n-1) with the vector C in a local
//   variable that starts at 0, then store it in A[i].
__global__ void matvec_kernel(float* A, const float* B, const float* C, int n) {
  // TODO
}

void matvec(float* A, const float* B, const float* C, int n) {
  // TODO: choose a 1D block (e.g. 128 threads), compute how many blocks it takes to give every
  // element of A its own thread (round up: n need not be a multiple of the block size), and
  // launch matvec_kernel<<<blocks, threads>>>(...).
}
