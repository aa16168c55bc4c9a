// must-fail: SingleBlock.Integers SingleBlock.Reals SingleBlock.Examples SingleBlock.OneBlock
// must-fail: SingleBlock.SharedMemory
// redteam: stale and foreign pointers: buffers of earlier calls, guessed regions, freed memory
//
// The fake address space is public (launcher/protocol.hpp: region r at 0x4000 << 48 + r << 36;
// the lab program's buffers get regions 1, 2, 3, ... in order and reuse freed ones). So a
// launcher can name buffers it was never given. Turn by turn, each call: launches a kernel whose
// parameters (one of them inside a struct) point at the previous call's C and at regions 1 to 8,
// and writes there; copies from the region after C's into C; memsets 1 GiB from the previous
// call's A; cudaFree()s the lab program's A; uses its own allocation after freeing it; passes a
// pointer 4 GiB past the end of C. C is never computed.
// Why it must fail: the lab program replays only within the buffers of this call and the
// launcher's live allocations, in a context of the student's own: whatever a foreign pointer
// reaches there is a shadow that is never copied back, and C keeps its NaN poison.
#include <cuda_runtime.h>

#include <cstdint>

#include "lab5.h"

namespace {

constexpr std::uint64_t kFakeBase = std::uint64_t{0x4000} << 48;
float* region(std::uint64_t r) { return reinterpret_cast<float*>(kFakeBase + (r << 36)); }
std::uint64_t region_of(const void* p) {
  return (reinterpret_cast<std::uint64_t>(p) - kFakeBase) >> 36;
}

struct Elsewhere {
  float* buffers[8];
};

__global__ void scribble(float* stale, Elsewhere elsewhere) {
  if (threadIdx.x == 0 && stale) stale[0] = 1.0f;
  if (threadIdx.x < 8) elsewhere.buffers[threadIdx.x][0] = 1.0f;
}

__global__ void touch(float* p) { p[threadIdx.x] = 1.0f; }

const float* previous_a = nullptr;
float* previous_c = nullptr;
int turn = 0;

}  // namespace

void matmul_single_block(const float* A, const float*, float* C, int a_rows, int, int b_cols) {
  const std::size_t bytes = sizeof(float) * a_rows * b_cols;
  switch (turn++ % 6) {
    case 0: {
      Elsewhere e;
      for (int i = 0; i < 8; ++i) e.buffers[i] = region(1 + i);
      scribble<<<1, 32>>>(previous_c, e);
      break;
    }
    case 1:
      cudaMemcpy(C, region(region_of(C) + 1), bytes, cudaMemcpyDeviceToDevice);
      break;
    case 2:
      cudaMemset(const_cast<float*>(previous_a ? previous_a : A), 0, std::size_t{1} << 30);
      break;
    case 3:
      cudaFree(const_cast<float*>(A));
      break;
    case 4: {
      float* mine = nullptr;
      cudaMalloc(&mine, bytes);
      cudaFree(mine);
      touch<<<1, 32>>>(mine);
      break;
    }
    default:
      touch<<<1, 32>>>(C + (std::size_t{1} << 30));
      break;
  }
  previous_a = A;
  previous_c = C;
}
