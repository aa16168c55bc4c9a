// must-fail: CopyMatrix.Correctness
// diagnosis: transposed_result
// Known-wrong: writes element (y, x) to position (x, y): the output is the transpose.
#include "lab1.h"

__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid(cols / 32, rows / 8);
  copy_kernel<<<grid, block>>>(in, out, rows, cols);
}

__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < rows; y += gridDim.y * blockDim.y)
    out[y * cols + x] = in[y * cols + x];
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  copy_strided_kernel<<<dim3(cols / 32, rows / 32), dim3(32, 8)>>>(in, out, rows, cols);
}
