// must-fail: Sgemm.ShareAt4096 Sgemm.ShareTall Sgemm.ShareWide Sgemm.ShareShortK
// redteam: a __device__ launch counter: from the third same launch on, 1/32 of C per launch
//
// A one-thread kernel runs before the product and keeps, in __device__ variables (they live as
// long as the module does, across calls), the previous launch's arguments and how many launches
// in a row had them. The first two launches of a problem compute all of C with a tiled kernel
// (16 x 16 tiles in shared memory, edges guarded); from the third on, only one block in 32
// computes its tile, a different 32nd each launch, so 32 launches of one call complete C. This is
// the attack README.md's last paragraph used to describe: a timed series that replays one call on
// the same buffers and looks at C only after it sees 32 launches' worth of work made in one, and a
// check that looks only at the last launch of a series shorter than 32 sees the 32nds of earlier
// launches still in C. Two, not one: Sgemm.Large runs integers and then reals at each shape, on
// fresh buffers that may get the same addresses, so a correctness check can repeat a launch's
// arguments once; never twice, so every case passes.
// Why it must fail: every timed call gets new A and B and a C set to NaN, and its output is
// compared after it (timing.hpp: draw_inputs, TimedCall::before and verify): the first timed call
// that is a third launch in a row (after the checked call and the warm-up) leaves 31/32 of C NaN,
// and each Sgemm.Share* check fails naming that call.
#include "lab8.h"

namespace {

constexpr int TILE = 16;
constexpr int kSlices = 32;

__device__ const float* last_a;
__device__ const float* last_b;
__device__ float* last_c;
__device__ int last_m, last_k, last_n;
__device__ unsigned launches;  // launches in a row with the same arguments, this one included
__device__ int slice;          // -1: every tile; otherwise only the blocks of this 32nd

__global__ void count_launch(const float* A, const float* B, float* C, int m, int k, int n) {
  const bool same =
      A == last_a && B == last_b && C == last_c && m == last_m && k == last_k && n == last_n;
  launches = same ? launches + 1 : 1;
  slice = launches <= 2 ? -1 : static_cast<int>((launches - 3) % kSlices);
  last_a = A;
  last_b = B;
  last_c = C;
  last_m = m;
  last_k = k;
  last_n = n;
}

// Lab 7's tiled kernel: zero-filled tiles past the edges, guarded stores.
__global__ void sgemm_kernel(const float* A, const float* B, float* C, int m, int k, int n) {
  if (slice >= 0 && (blockIdx.y * gridDim.x + blockIdx.x) % kSlices != slice) return;
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int p = 0; p < (k + TILE - 1) / TILE; ++p) {
    const int a_col = p * TILE + tx, b_row = p * TILE + ty;
    As[ty][tx] = row < m && a_col < k ? A[static_cast<long long>(row) * k + a_col] : 0.0f;
    Bs[ty][tx] = b_row < k && col < n ? B[static_cast<long long>(b_row) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) sum += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) C[static_cast<long long>(row) * n + col] = sum;
}

}  // namespace

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  count_launch<<<1, 1>>>(A, B, C, m, k, n);
  const dim3 block(TILE, TILE);
  const dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
  sgemm_kernel<<<grid, block>>>(A, B, C, m, k, n);
}
