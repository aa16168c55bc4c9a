// must-fail: CopyMatrix.Speed CopyMatrixStrided.Speed
// diagnosis: slow_kernel uncoalesced_access
// evidence: uncoalesced_access
// Known-wrong (for speed): threadIdx.x walks down a column, so the 32 threads of a warp read 32
// different rows. The copy is right, but every warp's access is scattered.
#include "lab1.h"

__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;  // row from x: the mistake
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  copy_kernel<<<dim3(rows / 32, cols / 8), dim3(32, 8)>>>(in, out, rows, cols);
}

__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  int y0 = blockIdx.x * blockDim.x + threadIdx.x;
  int x = blockIdx.y * blockDim.y + threadIdx.y;
  for (int y = y0; y < rows; y += gridDim.x * blockDim.x) out[y * cols + x] = in[y * cols + x];
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  int grid_x = rows / 128 > 0 ? rows / 128 : 1;
  copy_strided_kernel<<<dim3(grid_x, cols / 8), dim3(32, 8)>>>(in, out, rows, cols);
}
