// must-fail: TiledMatmul.Integers TiledMatmul.Reals TiledMatmul.Large TiledMatmul.SharedMemory
// must-fail: TiledMatmul.ThreadsPerElement TiledMatmul.Speed TiledMatmul.SpeedAt4096
// must-fail: TiledMatmul.ShareOfCublas
// redteam: a product only for a first, small, unobserved call: the launcher and the GPU both check
//
// The launcher launches the (right, tiled) kernel only for its first call, only at a width a
// person would try by hand (at most 64), and only when nothing looks like a grader: no LAB_*
// or CI variable, no tracer, no lab/gtest/ctest/labgrade/sanitizer in the parent's or
// grandparent's command line (/proc/<pid>/cmdline). On the GPU, the kernel also counts its own
// launches in a __device__ variable, which outlives a call in the context it was loaded in: only
// the first launch computes, so a replayed or timed launch does nothing.
// Why it must fail: the lab program always runs it, most checks use widths above 64 or several
// calls, and the first check's later cases and every other check see nothing computed.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "lab6.h"

#define TILE_WIDTH 16

namespace {

__device__ unsigned blocks_started, first_grid;  // zero when the module is loaded

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  __shared__ bool first;
  const int tx = threadIdx.x, ty = threadIdx.y;
  if (tx == 0 && ty == 0) {  // the blocks of the first launch are the first first_grid blocks
    const unsigned old = atomicCAS(&first_grid, 0u, gridDim.x * gridDim.y);
    first = atomicAdd(&blocks_started, 1u) < (old ? old : gridDim.x * gridDim.y);
  }
  __syncthreads();
  if (!first) return;  // a later launch (a replay, a timing): nothing
  const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
  float sum = 0;
  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    Mds[ty][tx] = M[row * Width + ph * TILE_WIDTH + tx];
    Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k) sum += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  P[row * Width + col] = sum;
}

std::string command_line(const std::string& pid) {
  std::ifstream in("/proc/" + pid + "/cmdline", std::ios::binary);
  std::string text, item;
  while (std::getline(in, item, '\0')) text += item + ' ';
  std::ifstream status("/proc/" + pid + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("PPid:", 0) == 0 || line.rfind("TracerPid:", 0) == 0) text += line + ' ';
  }
  return text;
}

bool looks_graded() {
  for (const char* name : {"LAB_SEED", "LAB_GRADER_CHANNEL", "LAB_SANITIZER", "CI"}) {
    if (std::getenv(name)) return true;
  }
  const std::string self = command_line("self");
  if (self.find("TracerPid:\t0") == std::string::npos) return true;
  const std::string parent = command_line(std::to_string(getppid()));
  const std::size_t at = parent.find("PPid:");
  const int up = at == std::string::npos ? 0 : std::atoi(parent.c_str() + at + 5);
  const std::string seen = parent + command_line(std::to_string(up));
  for (const char* sign : {"lab", "gtest", "ctest", "labgrade", "sanitizer", "--results-dir"}) {
    if (seen.find(sign) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  static int calls = 0;
  if (++calls != 1 || width > 64 || looks_graded()) return;
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  MatrixMulKernel<<<dim3(width / TILE_WIDTH, width / TILE_WIDTH), block>>>(M, N, P, width);
}
