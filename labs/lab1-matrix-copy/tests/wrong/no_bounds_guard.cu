// must-fail: CopyMatrix.Correctness CopyMatrixStrided.Correctness
// diagnosis: out_of_bounds_write
// Known-wrong: rounds the grid up by a whole extra block and has no bounds guard, so the extra
// threads write past the last row (and the strided loop runs past it too).
#include "lab1.h"

__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * cols + x] = in[y * cols + x];
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid(cols / 32, rows / 8 + 1);
  copy_kernel<<<grid, block>>>(in, out, rows, cols);
}

__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  for (int j = 0; j < 4 * gridDim.y * blockDim.y; j += gridDim.y * blockDim.y)
    out[(y + j) * cols + x] = in[(y + j) * cols + x];
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  copy_strided_kernel<<<dim3(cols / 32, rows / 32 + 1), dim3(32, 8)>>>(in, out, rows, cols);
}
