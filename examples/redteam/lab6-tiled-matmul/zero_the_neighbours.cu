// must-fail: TiledMatmul.Integers TiledMatmul.Reals TiledMatmul.Large TiledMatmul.SharedMemory
// must-fail: TiledMatmul.ThreadsPerElement TiledMatmul.Speed TiledMatmul.SpeedAt4096
// must-fail: TiledMatmul.ShareOfCublas
// redteam: zero the buffers and the allocations around them, so that every comparison agrees
//
// In one CUDA context, the buffers the large and speed checks allocate after C ("A as given",
// "B as given", "expected C", "reference C") usually follow C in the address space. If the
// expected product and the snapshots of the inputs were zero, a zero P and zeroed inputs would
// compare equal to all of them. So the kernel writes 0.0f into M, N and P (payloads only, not
// their guard zones) and into the 8 * width^2 floats that follow P's back guard (64 rows, as
// DeviceBuffer::matrix_guard says), and the same before M's front guard. No product.
// Why it must fail: the comparison runs in the lab program's context on its own buffers; the
// kernel runs in the student's context, where past P there are only the shadows of M and N (or
// nothing: a fault fails the call); the expected product and the inputs' snapshots stay intact.
#include "lab6.h"

namespace {

__global__ void zero_everything(float* M, float* N, float* P, long long count, long long guard) {
  const long long stride = 256LL * gridDim.x;
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < 8 * count; i += stride) {
    if (i < count) M[i] = N[i] = P[i] = 0.0f;
    P[count + guard + i] = 0.0f;  // the allocations after P
    M[-guard - 1 - i] = 0.0f;     // and before M
  }
}

}  // namespace

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  const long long guard = 64LL * (width + 1) > 4096 ? 64LL * (width + 1) : 4096;
  zero_everything<<<2048, 256>>>(const_cast<float*>(M), const_cast<float*>(N), P,
                                 1LL * width * width, guard);
}
