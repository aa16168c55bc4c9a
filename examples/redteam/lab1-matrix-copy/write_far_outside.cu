// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: a device kernel that writes far outside its buffers, hoping to reach the checker's data
//
// When kernel.cu ran in the lab program, the checker's own buffers (the expected values, the
// input's snapshot) sat in the same CUDA context, next to `out` in the address space. The
// launchers here never copy: copy_matrix floods every 4 KiB from out - 1 GiB to out + 1 GiB
// with zeros, skipping out's own elements and guard zones (64 rows and more either side, as
// DeviceBuffer::matrix_guard says), so a zeroed neighbour could compare equal to a zeroed output;
// copy_matrix_strided writes single floats at out +- 1 GiB and in +- 1 GiB.
// Why it must fail: the kernel runs in the student's own context, which holds only the shadows of
// this call's buffers; the checker's data is in another context, out of reach of any address.
// A write to unmapped memory faults the student's context only (the call fails, a new context
// serves the next call); `out` keeps its NaN poison, so nothing passes.
#include "lab1.h"

namespace {

constexpr long long kReach = 1LL << 28;  // 1 GiB of floats, each side
constexpr long long kStep = 1024;        // a float every 4 KiB

__global__ void flood_around(float* out, long long skip) {
  const long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  const long long offset = (t / 2 + 1) * kStep;
  if (offset > kReach || offset <= skip) return;  // not on out's elements or guards
  volatile float* target = (t & 1) ? out - offset : out + offset;
  *target = 0.0f;
}

__global__ void poke(float* out, float* in) {
  volatile float* targets[] = {out + kReach, out - kReach, in + kReach, in - kReach};
  for (volatile float* target : targets) *target = 0.0f;
}

}  // namespace

void copy_matrix(const float*, float* out, int rows, int cols) {
  const long long guard = 64LL * (cols + 1) > 4096 ? 64LL * (cols + 1) : 4096;
  const long long skip = 1LL * rows * cols + guard;
  const long long threads = 2 * (kReach / kStep);
  flood_around<<<static_cast<unsigned>(threads / 256), 256>>>(out, skip);
}

void copy_matrix_strided(const float* in, float* out, int, int) {
  poke<<<1, 1>>>(out, const_cast<float*>(in));
}
