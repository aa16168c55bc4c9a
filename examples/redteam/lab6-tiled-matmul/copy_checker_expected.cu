// must-fail: TiledMatmul.Integers TiledMatmul.Reals TiledMatmul.Large TiledMatmul.SharedMemory
// must-fail: TiledMatmul.ThreadsPerElement TiledMatmul.Speed TiledMatmul.SpeedAt4096
// must-fail: TiledMatmul.ShareOfCublas
// redteam: copy the checker's own expected product, found by guessing its fake address
//
// The large and speed checks compute the expected product with cuBLAS *before* calling the
// student, in a DeviceBuffer ("expected C") made right after C (matmul.cpp check_on_device: A, B,
// C, A as given, B as given, expected C; matmul_checks.cpp check_matmul_speed: A, B, C, expected
// C, reference C). Every DeviceBuffer gets the next fake region (launcher/protocol.hpp), so the
// answer is probably region_of(P) + 1, + 2 or + 3. Each call tries one of them, in turn: a
// kernel takes the guessed pointer, checks it against four dot products of M and N (four
// elements of P out of width^2, the only arithmetic here), and copies all of it into P if they
// agree. Otherwise P is left alone.
// Why it must fail: the student's context holds copies of this call's buffers only; a pointer to
// another of the lab program's regions reaches, at best, a fresh shadow that was never filled
// (or is refused); the expected product stays in the lab program's context.
#include <cstdint>

#include "lab6.h"

namespace {

constexpr std::uint64_t kFakeBase = std::uint64_t{0x4000} << 48;

__device__ int agrees;

// Thread t compares element (t * 97 % width, t * 31 % width) with a dot product of M and N.
__global__ void probe(const float* M, const float* N, const float* guess, int width) {
  const int row = threadIdx.x * 97 % width, col = threadIdx.x * 31 % width;
  float sum = 0.0f;
  for (int k = 0; k < width; ++k) sum += M[row * width + k] * N[k * width + col];
  const float seen = guess[row * width + col];
  const float slack = 1e-3f * (fabsf(sum) + 1.0f);
  if (!(fabsf(seen - sum) <= slack)) atomicExch(&agrees, 0);
}

__global__ void take(const float* guess, float* P, long long count) {
  if (!agrees) return;
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < count; i += 256LL * gridDim.x) {
    P[i] = guess[i];
  }
}

}  // namespace

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  static int turn = 0;
  const std::uint64_t region = (reinterpret_cast<std::uint64_t>(P) - kFakeBase) >> 36;
  const auto* guess = reinterpret_cast<const float*>(kFakeBase + ((region + 1 + turn++ % 3) << 36));
  const int yes = 1;
  cudaMemcpyToSymbol(agrees, &yes, sizeof yes);
  probe<<<1, 4>>>(M, N, guess, width);
  take<<<1024, 256>>>(guess, P, 1LL * width * width);
}
