// must-fail: CopyMatrix.Correctness
// diagnosis: launch_config_invalid
// Known-wrong: one block of one thread per element, the element's number taken from blockIdx.y.
// gridDim.y is at most 65535 (only gridDim.x goes up to 2^31 - 1), so from 256 x 256 (65536
// elements) on the launch fails (cudaErrorInvalidConfiguration); 32 x 32 (1024 blocks) is right.
#include "lab1.h"

__global__ void copy_kernel(const float* in, float* out, int elements) {
  int i = blockIdx.y;
  if (i < elements) out[i] = in[i];
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  dim3 grid(1, rows * cols);
  copy_kernel<<<grid, 1>>>(in, out, rows * cols);
}

// The strided copy is right: only copy_matrix is the known-wrong one.
__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.y * blockDim.y;
  if (x >= cols) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < rows; y += stride) {
    out[y * cols + x] = in[y * cols + x];
  }
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y * 4 - 1) / (block.y * 4));
  copy_strided_kernel<<<grid, block>>>(in, out, rows, cols);
}
