// must-fail: TransposeTiled.Speed
// diagnosis: slow_kernel
// evidence: idle_blocks
// Known-wrong (for speed): transpose_tiled launches twice the blocks it needs in x and in y, 4
// times the grid; the extra three quarters return at once. The result is right, but the GPU
// still schedules every one of those blocks.
#include "lab9.h"

namespace {

constexpr int kTile = 32;      // a tile of kTile x kTile elements
constexpr int kBlockRows = 8;  // a block of kTile x kBlockRows threads: 4 elements each

}  // namespace

// Reads along in's rows (coalesced); the writes go down out's columns (one row of out apart per
// thread of a warp), which is what the tiled version fixes.
__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

void transpose(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_kernel<<<grid, block>>>(in, out, rows, cols);
}

// The tile is read along in's rows and written along out's rows, so both are coalesced. The
// extra column puts tile[i][j] and tile[i + 1][j] in different banks: reading a column of the
// tile (the transposed write) is then free of bank conflicts.
__global__ void transpose_tiled_kernel(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  // A block past the matrix has no tile: it returns at once (the whole block, before any barrier).
  if (blockIdx.x * kTile >= cols || blockIdx.y * kTile >= rows) return;
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  }
  __syncthreads();
  // The block's tile lands at (blockIdx.x, blockIdx.y) swapped in out (cols x rows).
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

void transpose_tiled(const float* in, float* out, int rows, int cols) {
  dim3 block(kTile, kBlockRows);
  // Twice the blocks it needs each way (the mistake): 4 times the grid.
  dim3 grid(2 * ((cols + kTile - 1) / kTile), 2 * ((rows + kTile - 1) / kTile));
  transpose_tiled_kernel<<<grid, block>>>(in, out, rows, cols);
}
