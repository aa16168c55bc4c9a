// Lab 4 reference solution: matrix-vector multiplication A = B * C, one thread per element of A
// (seed 000, exercise 2).
#include "lab4.h"

// Thread i computes A[i], the dot product of row i of B with C. The bounds check matters: the
// grid is rounded up to whole blocks, so the last block may have threads past the end of A.
__global__ void matvec_kernel(float* A, const float* B, const float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float Avalue = 0;  // a fresh sum for every output element
    for (int j = 0; j < n; ++j) {
      Avalue += B[i * n + j] * C[j];
    }
    A[i] = Avalue;
  }
}

void matvec(float* A, const float* B, const float* C, int n) {
  // 128 threads per block: at n = 16384 that makes 128 blocks, about one per SM of an H100, so
  // the few threads there are spread over the whole GPU.
  const int threads = 128;
  const int blocks = (n + threads - 1) / threads;  // round up: n need not be a multiple
  matvec_kernel<<<blocks, threads>>>(A, B, C, n);
}
