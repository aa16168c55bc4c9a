// must-fail: build
// diagnosis: library_call
// build-output: calls cublasSgemm_v2 (cuBLAS), which this lab does not allow
// Known-wrong: the product from cuBLAS, called directly. The launcher links no library, so the
// build fails at the link, and the build says which call and why it is not allowed (the batch
// grader the same, for a kernel.cu).
#if !defined(LABS_EMULATION)
#include <cublas_v2.h>
#else
// The CPU emulation's runtime is not CUDA's, which cublas_v2.h includes: the declarations it
// makes.
typedef struct cublasContext* cublasHandle_t;
typedef int cublasStatus_t;
typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 } cublasOperation_t;
extern "C" cublasStatus_t cublasCreate_v2(cublasHandle_t* handle);
extern "C" cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                                         cublasOperation_t transb, int m, int n, int k,
                                         const float* alpha, const float* A, int lda,
                                         const float* B, int ldb, const float* beta, float* C,
                                         int ldc);
#define cublasCreate cublasCreate_v2
#define cublasSgemm cublasSgemm_v2
#endif

#include "lab8.h"

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  static cublasHandle_t handle = nullptr;
  if (!handle) cublasCreate(&handle);
  const float one = 1.0f, zero = 0.0f;
  // Row-major C = A B is column-major C^T = B^T A^T.
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, C, n);
}
