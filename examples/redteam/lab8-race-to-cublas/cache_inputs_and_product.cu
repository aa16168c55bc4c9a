// must-fail: Sgemm.ShareAt4096 Sgemm.ShareTall Sgemm.ShareWide Sgemm.ShareShortK
// redteam: a cache in a launcher cudaMalloc: copies of A, B and C, served when A and B match
//
// At its first call (and whenever a larger problem comes) the launcher cudaMallocs a pool for two
// slots and keeps the pointer in a static: the allocation lives in the student's context across
// calls, and a replayed call (which does not run the host code again) reuses it. Each slot holds a
// copy of A, B and C; its shape is kept in __device__ variables, since replays never see the
// host's. Every call first compares A and B, whole and exactly, with the slots of its shape (a
// bandwidth-bound pass, cheap next to a product); on a match the slot's C is copied into C and
// the product kernel returns at once. Otherwise the product is computed and A, B and C go into
// the older slot. No hit is ever wrong, so any check that repeats A and B (the same inputs timed
// again and again, or a few sets in turn) is served right in a fraction of a millisecond; the
// correctness checks draw new inputs for every case, so they never hit, and every case passes.
// The honest product is made slow on purpose, so that only the cached answers could earn points:
// skip_when_c_holds_numbers.cu's (a warp on 32 rows and 32 columns 128 bytes apart, loads through
// L2 only: under 0.5% of cuBLAS FP32 on an H100 by estimate, 0.6 to 1 s a 4096^3 call).
// Why it must fail: every timed call gets A and B drawn for it (timing.hpp's draw_inputs, a new
// seed each round), which no slot holds, so every timed call computes the product at its honest
// speed, below the 1% of cuBLAS every Sgemm.Share* check needs. Were the timed calls to repeat
// inputs, the copies would be right and show as a speed far above the GPU's FP32 peak, which must
// read as "implausible", never as a pass.
#include "lab8.h"

namespace {

constexpr int kSlots = 2;
constexpr int kTileRows = 32;        // the slow product's tile of C: 32 rows ...
constexpr int kTileCols = 1024;      // ... of 1024 columns, 1024 warps of 32 elements
constexpr int kThreads = 256;        // 8 warps a block,
constexpr int kBlocksPerTile = 128;  // 128 blocks a tile
constexpr int kCopyBlocks = 1024;

// The shape each slot holds (m == 0: empty), and what this call found.
__device__ int slot_m[kSlots], slot_k[kSlots], slot_n[kSlots];
__device__ int slot_differs[kSlots];
__device__ unsigned next_victim;
__device__ int served_from;  // the slot this call's C came from, or -1: computed
__device__ int victim;       // the slot a computed call's copies go to

__global__ void forget_slots() {
  for (int s = 0; s < kSlots; ++s) slot_m[s] = 0;
}

__global__ void no_cache() { served_from = -1; }

__global__ void begin_lookup(int m, int k, int n) {
  for (int s = 0; s < kSlots; ++s) {
    slot_differs[s] = !(slot_m[s] == m && slot_k[s] == k && slot_n[s] == n);
  }
}

// Slot s starts at pool + s * stride: A (m x k), then B (k x n), then C (m x n).
__global__ void compare_inputs(const float* A, const float* B, const float* pool, long long stride,
                               int m, int k, int n) {
  const long long a_count = static_cast<long long>(m) * k;
  const long long total = a_count + static_cast<long long>(k) * n;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const float x = i < a_count ? A[i] : B[i - a_count];
    for (int s = 0; s < kSlots; ++s) {
      if (!slot_differs[s] && pool[s * stride + i] != x) slot_differs[s] = 1;
    }
  }
}

__global__ void decide() {
  served_from = -1;
  for (int s = 0; s < kSlots && served_from < 0; ++s) {
    if (!slot_differs[s]) served_from = s;
  }
  if (served_from < 0) {
    victim = static_cast<int>(next_victim++ % kSlots);
    slot_m[victim] = 0;  // empty while it is rewritten
  }
}

__global__ void serve_from_slot(float* C, const float* pool, long long stride, int m, int k,
                                int n) {
  if (served_from < 0) return;
  const long long c_at = static_cast<long long>(m) * k + static_cast<long long>(k) * n;
  const long long count = static_cast<long long>(m) * n;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    C[i] = pool[served_from * stride + c_at + i];
  }
}

__global__ void store_in_slot(const float* A, const float* B, const float* C, float* pool,
                              long long stride, int m, int k, int n) {
  if (served_from >= 0) return;
  const long long a_count = static_cast<long long>(m) * k;
  const long long b_count = static_cast<long long>(k) * n;
  const long long total = a_count + b_count + static_cast<long long>(m) * n;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    pool[victim * stride + i] =
        i < a_count ? A[i] : (i < a_count + b_count ? B[i - a_count] : C[i - a_count - b_count]);
  }
}

__global__ void seal_slot(int m, int k, int n) {
  if (served_from >= 0) return;
  slot_k[victim] = k;
  slot_n[victim] = n;
  slot_m[victim] = m;
}

// ---- the honest product, slow on purpose (skip_when_c_holds_numbers.cu's) ----

__device__ __forceinline__ float load_l2(const float* p) {
#if defined(__CUDA_ARCH__)
  return __ldcg(p);
#else
  return *p;
#endif
}

__global__ void sgemm_kernel(const float* A, const float* B, float* C, int m, int k, int n) {
  if (served_from >= 0) return;  // served from a slot
  const int tiles_down = (m + kTileRows - 1) / kTileRows;
  const int tile = blockIdx.x / kBlocksPerTile;
  const int warp = (blockIdx.x % kBlocksPerTile) * (kThreads / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const int row = (tile % tiles_down) * kTileRows + (lane + warp / 32) % 32;
  const int col = (tile / tiles_down) * kTileCols + 32 * lane + warp % 32;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    sum += load_l2(A + static_cast<long long>(row) * k + i) *
           load_l2(B + static_cast<long long>(i) * n + col);
  }
  C[static_cast<long long>(row) * n + col] = sum;
}

void launch_product(const float* A, const float* B, float* C, int m, int k, int n) {
  const int tiles = ((m + kTileRows - 1) / kTileRows) * ((n + kTileCols - 1) / kTileCols);
  sgemm_kernel<<<tiles * kBlocksPerTile, kThreads>>>(A, B, C, m, k, n);
}

}  // namespace

void sgemm(const float* A, const float* B, float* C, int m, int k, int n) {
  static float* pool = nullptr;
  static long long stride = 0;  // floats a slot holds
  const long long need =
      static_cast<long long>(m) * k + static_cast<long long>(k) * n + static_cast<long long>(m) * n;
  if (need > stride) {  // a larger problem than any before: a new pool, empty
    if (pool) cudaFree(pool);
    pool = nullptr;
    stride = 0;
    if (cudaMalloc(&pool, kSlots * need * sizeof(float)) == cudaSuccess) stride = need;
    forget_slots<<<1, 1>>>();
  }
  if (!pool) {  // no memory for a cache: compute
    no_cache<<<1, 1>>>();
    launch_product(A, B, C, m, k, n);
    return;
  }
  begin_lookup<<<1, 1>>>(m, k, n);
  compare_inputs<<<kCopyBlocks, 256>>>(A, B, pool, stride, m, k, n);
  decide<<<1, 1>>>();
  serve_from_slot<<<kCopyBlocks, 256>>>(C, pool, stride, m, k, n);
  launch_product(A, B, C, m, k, n);
  store_in_slot<<<kCopyBlocks, 256>>>(A, B, C, pool, stride, m, k, n);
  seal_slot<<<1, 1>>>(m, k, n);
}
