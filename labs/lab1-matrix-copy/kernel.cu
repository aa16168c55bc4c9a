// Lab 1: matrix copy. Write the two kernels and their launchers; see README.md.
#include "lab1.h"

// TODO: a kernel with one thread per element.
//   Work out this thread's column (x) and row (y) from blockIdx, blockDim and threadIdx,
//   then copy in[y * cols + x] to out[y * cols + x].
__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  // TODO
}

void copy_matrix(const float* in, float* out, int rows, int cols) {
  // TODO: choose a block shape (dim3 block(32, 8) is a good start), compute the grid so that
  // every element gets a thread, and launch copy_kernel<<<grid, block>>>(...).
}

// TODO: a kernel in which each thread copies several rows: start at this thread's row and step
// by the height of the whole grid (gridDim.y * blockDim.y) until you pass the last row.
__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  // TODO
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  // TODO: launch a grid a quarter as tall (or less) as copy_matrix's, so that each thread copies
  // 4 or more elements.
}
