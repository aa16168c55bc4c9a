// must-fail: CopyMatrix.Speed CopyMatrixStrided.Speed
// redteam: a __device__ launch counter: a launch that repeats the previous one copies only 1/8
//
// A one-thread kernel runs before each copy and keeps, in __device__ variables (they live as long
// as the module does, across calls), the arguments of the previous launch and how many launches
// in a row had the same ones. The first launch of a problem copies everything; each launch that
// repeats it copies one eighth of the blocks, a different eighth each time, so that after eight
// repeats of the same call every element has been copied once more. A timed series that replays
// one call on the same buffers, poisons the output once and checks it only after the series
// (what the speed checks did before issue 29, and what README.md's last paragraph described)
// sees a complete, right copy made eight times faster. The correctness checks call each size once
// with fresh buffers: every call is a first launch, and every case passes.
// Why it must fail: every timed call gets new inputs and an output set to NaN, and each timed
// call's output is compared after it: the first timed call (a repeat of the warm-up launches)
// leaves seven eighths of `out` NaN, and the speed check fails naming that call.
#include "lab1.h"

namespace {

constexpr int kSlices = 8;

// The previous launch's arguments, and how many launches in a row repeated them.
__device__ const float* last_in;
__device__ float* last_out;
__device__ int last_rows, last_cols, last_kernel;
__device__ unsigned repeats;
__device__ int slice;  // -1: copy everything; otherwise only the blocks of this eighth

__global__ void count_launch(const float* in, float* out, int rows, int cols, int kernel) {
  const bool same = in == last_in && out == last_out && rows == last_rows && cols == last_cols &&
                    kernel == last_kernel;
  repeats = same ? repeats + 1 : 0;
  last_in = in;
  last_out = out;
  last_rows = rows;
  last_cols = cols;
  last_kernel = kernel;
  slice = repeats == 0 ? -1 : static_cast<int>((repeats - 1) % kSlices);
}

__device__ bool block_skips() {
  const int block = blockIdx.y * gridDim.x + blockIdx.x;
  return slice >= 0 && block % kSlices != slice;
}

// The reference solution's kernels (coalesced), with the skip in front.
__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  if (block_skips()) return;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];
}

__global__ void copy_strided_kernel(const float* in, float* out, int rows, int cols) {
  if (block_skips()) return;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = gridDim.y * blockDim.y;
  if (x >= cols) return;
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < rows; y += stride) {
    out[y * cols + x] = in[y * cols + x];
  }
}

}  // namespace

void copy_matrix(const float* in, float* out, int rows, int cols) {
  count_launch<<<1, 1>>>(in, out, rows, cols, 0);
  const dim3 block(32, 8);
  copy_kernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), block>>>(in, out, rows, cols);
}

void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  count_launch<<<1, 1>>>(in, out, rows, cols, 1);
  const dim3 block(32, 8);
  // 8 rows a thread: the counting kernel's thread keeps the average well above 4.
  copy_strided_kernel<<<dim3((cols + 31) / 32, (rows + 63) / 64), block>>>(in, out, rows, cols);
}
