// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// diagnosis: output_not_initialised
// Known-wrong: adds the products straight into A[i] without setting it to 0 first, as if the output
// started at zero. It starts as whatever was in memory (the grader fills it with NaN).
#include "lab4.h"

__global__ void matvec_kernel(float* A, const float* B, const float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; ++j) A[i] += B[i * n + j] * C[j];
  }
}

void matvec(float* A, const float* B, const float* C, int n) {
  matvec_kernel<<<(n + 127) / 128, 128>>>(A, B, C, n);
}
