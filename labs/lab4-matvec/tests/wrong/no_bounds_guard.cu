// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads
// diagnosis: out_of_bounds_write
// Known-wrong: the grid is rounded up to whole blocks but the kernel has no `if (i < n)`, so the
// threads of the last block that lie past the end write past the end of A.
#include "lab4.h"

__global__ void matvec_kernel(float* A, const float* B, const float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float Avalue = 0;
  for (int j = 0; j < n; ++j) Avalue += B[i * n + j] * C[j];
  A[i] = Avalue;
}

void matvec(float* A, const float* B, const float* C, int n) {
  matvec_kernel<<<(n + 127) / 128, 128>>>(A, B, C, n);
}
