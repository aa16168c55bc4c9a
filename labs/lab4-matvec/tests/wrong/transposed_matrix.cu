// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// diagnosis: swapped_index
// Known-wrong: reads B[j * n + i] (column i) instead of B[i * n + j] (row i), so it computes
// B-transpose times C: right only when B is symmetric (the graph matrices are, Pascal's is not).
#include "lab4.h"

__global__ void matvec_kernel(float* A, const float* B, const float* C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float Avalue = 0;
    for (int j = 0; j < n; ++j) Avalue += B[j * n + i] * C[j];
    A[i] = Avalue;
  }
}

void matvec(float* A, const float* B, const float* C, int n) {
  matvec_kernel<<<(n + 127) / 128, 128>>>(A, B, C, n);
}
