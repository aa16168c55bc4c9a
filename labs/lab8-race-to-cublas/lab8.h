// Lab 8: race to cuBLAS. The contract between your kernel.cu and the grader: keep this signature.
//   C (m x n) = A (m x k) * B (k x n), all row-major float32 in device memory.
// The argument order (m, k, n) is lab 7's: the sizes as they appear in A (m x k) * B (k x n).
// Any sizes from 1 up, not only multiples of your tiles. The grader allocates A, B and C (C filled
// with NaN), calls your launcher, then synchronizes and checks errors. Plain FP32 on the CUDA
// cores: no tensor cores (no wmma, mma or TF32), no libraries (cuBLAS, CUTLASS).
#pragma once

void sgemm(const float* A, const float* B, float* C, int m, int k, int n);
