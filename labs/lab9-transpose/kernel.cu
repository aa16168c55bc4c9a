// Lab 9: matrix transpose. Write the two kernels and their launchers; see README.md.
#include "lab9.h"

// TODO: one thread per element of `in`. Work out this thread's column (x) and row (y), and if
// both are inside the matrix, write in[y * cols + x] to out[x * rows + y].
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
  // TODO
}

void transpose(const float* in, float* out, int rows, int cols) {
  // TODO: choose a block (dim3 block(32, 8) is a good start), round the grid up so that every
  // element of `in` gets a thread, and launch transpose_kernel<<<grid, block>>>(...).
}

// TODO: the tiled version. A block loads a TILE x TILE tile of `in` into a __shared__ array of
// TILE x (TILE + 1) floats (reads along in's rows), waits with __syncthreads(), then writes the
// tile transposed (writes along out's rows). Guard both the loads and the stores.
__global__ void transpose_tiled_kernel(const float* in, float* out, int rows, int cols) {
  // TODO
}

void transpose_tiled(const float* in, float* out, int rows, int cols) {
  // TODO: one block per tile of `in`, and launch transpose_tiled_kernel.
}
