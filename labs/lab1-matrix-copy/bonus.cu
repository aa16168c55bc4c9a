// Lab 1 bonus (optional): a copy close to the memory's limit. See README.md, "Bonus".
// Left as it is, the bonus is "not attempted": no extra points, and nothing fails.
#include "lab1_bonus.h"

// TODO: view the matrix as rows * cols / 4 float4s (rows and cols are multiples of 32, and
// cudaMalloc aligns to 256 bytes, so every float4 is aligned), and copy them with a grid-stride
// loop: start at this thread's global index, step by gridDim.x * blockDim.x.
__global__ void copy_fast_kernel(const float4* in, float4* out, long long count) {
  // TODO
}

void copy_matrix_fast(const float* in, float* out, int rows, int cols) {
  // TODO: a one-dimensional grid of a few blocks per SM (cudaDeviceGetAttribute with
  // cudaDevAttrMultiProcessorCount), 256 threads each; reinterpret_cast the pointers to float4.
}
