// must-fail: Sgemm.Reals Sgemm.PlainFp32
// diagnosis: reduced_precision tensor_cores
// emulation: not built (wmma tensor-core code has no CPU emulation)
// Known wrong: tensor cores in TF32 (wmma, 16x16x8 tiles): 8x the speed of FP32 on an H100, but
// the inputs are rounded to 10 bits of mantissa, which the real-valued checks' FP32 error bound
// catches; the structure check finds the HMMA instructions in the machine code. Each warp computes
// one 16x16 tile of C through shared memory, zero-filled at the edges.
#include <mma.h>

#include "lab8.h"

__global__ void sgemm_tf32_kernel(const float* A, const float* B, float* C, int m, int k, int n) {
  __shared__ float As[16][8];
  __shared__ float Bs[8][16];
  __shared__ float Cs[16][16];
  const int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16, lane = threadIdx.x;
#if __CUDA_ARCH__ >= 800
  using namespace nvcuda;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < k; k0 += 8) {
    for (int i = lane; i < 128; i += 32) {
      const int r = i / 8, c = i % 8;
      As[r][c] = (row0 + r < m && k0 + c < k) ? A[(row0 + r) * k + k0 + c] : 0.0f;
      const int br = i / 16, bc = i % 16;
      Bs[br][bc] = (k0 + br < k && col0 + bc < n) ? B[(k0 + br) * n + col0 + bc] : 0.0f;
    }
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::load_matrix_sync(a, &As[0][0], 8);
    wmma::load_matrix_sync(b, &Bs[0][0], 16);
    for (int t = 0; t < a.num_elements; ++t) a.x[t] = wmma::__float_to_tf32(a.x[t]);
    for (int t = 0; t < b.num_elements; ++t) b.x[t] = wmma::__float_to_tf32(b.x[t]);
    wmma::mma_sync(acc, a, b, acc);
    __syncwarp();
  }
  wmma::store_matrix_sync(&Cs[0][0], acc, 16, wmma::mem_row_major);
#else
  // No TF32 tensor cores before sm_80: a plain product, so the file builds for every target.
  for (int i = lane; i < 256; i += 32) {
    float sum = 0;
    for (int kk = 0; kk < k; ++kk) {
      const int r = row0 + i / 16, c = col0 + i % 16;
      sum += (r < m && c < n) ? A[r * k + kk] * B[kk * n + c] : 0.0f;
    }
    Cs[i / 16][i % 16] = sum;
  }
#endif
  __syncwarp();
  for (int i = lane; i < 256; i += 32) {
    const int r = row0 + i / 16, c = col0 + i % 16;
    if (r < m && c < n) C[r * n + c] = Cs[i / 16][i % 16];
  }
}

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  const dim3 grid((n + 15) / 16, (m + 15) / 16);
  sgemm_tf32_kernel<<<grid, 32>>>(A, B, C, m, k, n);
}
