// must-fail: CopyMatrixStrided.ElementsPerThread
// diagnosis: one_element_per_thread
// Known-wrong: the "strided" copy launches a full-height grid, so every thread copies one
// element. The copy is right; the launch shape is not what the task asks for.
#include "lab1.h"

__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  copy_kernel<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(in, out, rows, cols);
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  copy_kernel<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(in, out, rows, cols);
}
