// must-fail: CopyMatrix.OneThreadPerElement CopyMatrixStrided.ElementsPerThread
// diagnosis: memcpy_instead_of_kernel
// Known-wrong: copies with cudaMemcpy instead of a kernel. Correct and fast, but not the lab.
#include <cuda_runtime.h>

#include "lab1.h"

void copy_matrix(const float* in, float* out, int rows, int cols) {
  cudaMemcpy(out, in, sizeof(float) * rows * cols, cudaMemcpyDeviceToDevice);
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  cudaMemcpy(out, in, sizeof(float) * rows * cols, cudaMemcpyDeviceToDevice);
}
