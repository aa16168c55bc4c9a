// must-fail: Sgemm.PlainFp32
// diagnosis: library_kernel
// emulation: not built (cuBLAS kernels cannot run on the CPU)
// Known wrong: right answers, but from cuBLAS, opened at run time (the harness never links it, so
// a plain call would not build). The launch recorder sees cuBLAS's kernel, which is not compiled
// into the program.
#include <dlfcn.h>

#include <cublas_v2.h>

#include "lab8.h"

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  using Create = cublasStatus_t (*)(cublasHandle_t*);
  using Gemm = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                  int, const float*, const float*, int, const float*, int,
                                  const float*, float*, int);
  static void* library = dlopen("libcublas.so", RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen("libcublas.so.13", RTLD_NOW | RTLD_LOCAL);
  if (!library) library = dlopen("libcublas.so.12", RTLD_NOW | RTLD_LOCAL);
  if (!library) return;
  static cublasHandle_t handle = nullptr;
  if (!handle) reinterpret_cast<Create>(dlsym(library, "cublasCreate_v2"))(&handle);
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T.
  reinterpret_cast<Gemm>(dlsym(library, "cublasSgemm_v2"))(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m,
                                                           k, &one, B, n, A, k, &zero, C, n);
}
