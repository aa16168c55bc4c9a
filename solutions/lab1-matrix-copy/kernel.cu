// Lab 1 reference solution: matrix copy, one thread per element and grid-stride in y.
#include "lab1.h"

// One thread per element: x walks along a row (consecutive threads read consecutive addresses,
// so a warp's loads coalesce), y picks the row.
__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  copy_kernel<<<grid, block>>>(in, out, rows, cols);
}

// Grid-stride in y: the grid covers a quarter of the rows, and each thread steps down by the
// grid's height, copying one element per step.
__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.y * blockDim.y;
  if (x >= cols) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < rows; y += stride) {
    out[y * cols + x] = in[y * cols + x];
  }
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  const int rows_per_thread = 4;
  dim3 block(32, 8);
  int grid_rows = (rows + block.y * rows_per_thread - 1) / (block.y * rows_per_thread);
  dim3 grid((cols + block.x - 1) / block.x, grid_rows);
  copy_strided_kernel<<<grid, block>>>(in, out, rows, cols);
}
