// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads
// diagnosis: grid_too_small
// Known-wrong: the grid is n / 256 blocks, rounded down: the last n % 256 elements of A get no
// thread (and below 256 there is no block at all). Right only when n is a multiple of 256.
#include "lab4.h"

__global__ void matvec_kernel(float* A, const float* B, const float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float Avalue = 0;
    for (int j = 0; j < n; ++j) Avalue += B[i * n + j] * C[j];
    A[i] = Avalue;
  }
}

void matvec(float* A, const float* B, const float* C, int n) {
  matvec_kernel<<<n / 256, 256>>>(A, B, C, n);
}
