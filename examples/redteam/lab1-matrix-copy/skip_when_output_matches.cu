// must-fail: CopyMatrix.Speed CopyMatrixStrided.Speed
// redteam: a block returns when its first output element already equals the input
//
// Each block first compares the first element of its part of `out` with the same element of
// `in`; if they are equal, the block takes its part as copied already and returns, having read
// two floats. Otherwise it copies its part (with a scattered access pattern: threadIdx.x walks
// down a column, as lab 1's tests/wrong/uncoalesced.cu does). Issue 29 on an H100: 268% of
// cudaMemcpy, because the speed checks made one checked call and then replayed the same
// launches on the same buffers: from the second replay on, every block found its copy done.
// The correctness checks always see a fresh output full of NaN (NaN equals nothing), so every
// block copies and every case passes: the kernel looks honest there.
// Why it must fail: every timed call gets new inputs and an output set to NaN (timing.hpp's
// draw_inputs and TimedCall::before), so no block ever finds its copy done; the copy then runs at
// its honest speed, about 15% of cudaMemcpy (docs/known-wrong-h100.md, lab1_uncoalesced), below
// CopyMatrix.Speed's 45% and CopyMatrixStrided.Speed's 60%. Were either speed check to keep an
// output from an earlier call (or the inputs of one), the skipped blocks would show as a speed
// far above cudaMemcpy's, which must read as "implausible" or as a wrong call, never as a pass.
#include "lab1.h"

namespace {

// Whether the block's first element of `out` already equals the input's: read by one thread
// before any thread of the block writes (every thread of the block must call it).
__device__ bool already_copied(const float* in, const float* out, long long first) {
  __shared__ bool done;
  if (threadIdx.x == 0 && threadIdx.y == 0) done = out[first] == in[first];
  __syncthreads();
  return done;
}

// One thread per element, blocks of 32 x 8 threads over 32 rows x 8 columns.
__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  const int first_row = blockIdx.x * blockDim.x, first_col = blockIdx.y * blockDim.y;
  if (already_copied(in, out, static_cast<long long>(first_row) * cols + first_col)) return;
  const int y = first_row + threadIdx.x;  // row from x: the warp's reads are scattered
  const int x = first_col + threadIdx.y;
  if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];
}

// Grid-stride in y: a block covers 32 rows x 8 columns per step, stepping down by the grid.
__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  const int first_row = blockIdx.x * blockDim.x, first_col = blockIdx.y * blockDim.y;
  if (already_copied(in, out, static_cast<long long>(first_row) * cols + first_col)) return;
  const int x = first_col + threadIdx.y;
  if (x >= cols) return;
  for (int y = first_row + threadIdx.x; y < rows; y += gridDim.x * blockDim.x) {
    out[y * cols + x] = in[y * cols + x];
  }
}

}  // namespace

void copy_matrix(const float* in, float* out, int rows, int cols) {
  // rows and cols are multiples of 32: the grid covers the matrix exactly.
  copy_kernel<<<dim3(rows / 32, cols / 8), dim3(32, 8)>>>(in, out, rows, cols);
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  const int grid_x = rows / 128 > 0 ? rows / 128 : 1;  // 4 rows (or more) per thread
  copy_strided_kernel<<<dim3(grid_x, cols / 8), dim3(32, 8)>>>(in, out, rows, cols);
}
