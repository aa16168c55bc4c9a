// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: make out equal to in by zeroing both: checks that compare out with in see no difference
//
// Read lab1_test.cu: the structure checks (observe_launch) and the speed checks
// (check_copy_speed) decide "the copy is right" with count_differences_on_device(in, out) == 0,
// on the GPU, with the input as the kernel left it. The contract says `in` is const, but a kernel
// can write through it: these kernels copy nothing and write 0.0f into both in and out, with the
// launch shapes the structure checks want (a thread per element; a grid a quarter as tall with a
// grid-stride loop) and about a copy's traffic (two writes instead of a read and a write).
// Only the correctness checks (expect_unchanged against the host's copy of the input) see it.
// Why it must fail: "right" must mean equal to what the input was, not to what the kernel left
// in it: compare with a snapshot taken before the call (or check the input unchanged too).
#include "lab1.h"

namespace {

__global__ void zero_both(float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) in[y * cols + x] = out[y * cols + x] = 0.0f;
}

__global__ void zero_both_strided(float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= cols) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < rows; y += gridDim.y * blockDim.y) {
    in[y * cols + x] = out[y * cols + x] = 0.0f;
  }
}

}  // namespace

void copy_matrix(const float* in, float* out, int rows, int cols) {
  const dim3 block(32, 8);
  const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  zero_both<<<grid, block>>>(const_cast<float*>(in), out, rows, cols);
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  const dim3 block(32, 8);
  const dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  zero_both_strided<<<grid, block>>>(const_cast<float*>(in), out, rows, cols);
}
