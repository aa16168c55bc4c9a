// must-fail: AnySize.SharedMemory
// diagnosis: no_shared_memory
// Known-wrong: seed 004's multNoShare kernel, with a correct bounds check, handed in for the
// tiled lab. Its products are right at every size, but it uses no shared memory at all.
#include "lab7.h"

__global__ void MatMulKernel(const float* A, const float* B, float* C, int m, int k, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float Cvalue = 0;
  for (int e = 0; e < k; ++e) Cvalue += A[row * k + e] * B[e * n + col];
  C[row * n + col] = Cvalue;
}

void matmul_tiled_any(const float* A, const float* B, float* C, int m, int k, int n) {
  dim3 dimBlock(16, 16);
  dim3 dimGrid((n + dimBlock.x - 1) / dimBlock.x, (m + dimBlock.y - 1) / dimBlock.y);
  MatMulKernel<<<dimGrid, dimBlock>>>(A, B, C, m, k, n);
}
