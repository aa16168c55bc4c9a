// The standalone benchmark behind docs/benchmarks/bonus-h100.md (build line there).
// Final bench for issue 8: the committed reference solutions (linked from solutions/), each timed
// twice (two rounds) against its reference in the same run: alternation, L2 flush, median of 30
// (20 for SGEMM), spread = IQR / median.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>
#include "lab1.h"
#include "lab1_bonus.h"
#include "lab4.h"
#include "lab4_bonus.h"
#include "lab8.h"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)
static void* g_flush; static size_t g_flush_bytes; static int g_round; static cudaEvent_t e0, e1;
struct Stat { double med, spread; };
static Stat summarize(std::vector<double> s) {
  std::sort(s.begin(), s.end());
  auto q = [&](double p) { double i = p * (s.size() - 1); size_t lo = (size_t)i; double f = i - lo;
    return lo + 1 < s.size() ? s[lo] * (1 - f) + s[lo + 1] * f : s[lo]; };
  double med = q(0.5); return {med, (q(0.75) - q(0.25)) / med};
}
static double time_once(const std::function<void()>& f) {
  CK(cudaMemsetAsync(g_flush, ++g_round & 0xff, g_flush_bytes));
  CK(cudaEventRecord(e0)); f(); CK(cudaGetLastError()); CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); return ms;
}
static std::pair<Stat, Stat> alternate(const std::function<void()>& ref, const std::function<void()>& own, int reps) {
  for (int i = 0; i < 3; ++i) { ref(); own(); }
  CK(cudaDeviceSynchronize());
  std::vector<double> a, b;
  for (int i = 0; i < reps; ++i) { a.push_back(time_once(ref)); b.push_back(time_once(own)); }
  return {summarize(a), summarize(b)};
}
__global__ void copy_32x32(const float* in, float* out, int rows, int cols) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < cols && y < rows) out[(size_t)y * cols + x] = in[(size_t)y * cols + x];
}

int main() {
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  int drv = 0, rt = 0; cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt);
  printf("GPU %s, %d SMs, L2 %d MB, driver API %d, runtime %d\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20, drv, rt);
  g_flush_bytes = 2 * (size_t)p.l2CacheSize; CK(cudaMalloc(&g_flush, g_flush_bytes));
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  const int R = 16384, Cc = 16384; const size_t N = (size_t)R * Cc, bytes = N * 4;
  float *in, *out, *ref; CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&out, bytes)); CK(cudaMalloc(&ref, bytes));
  CK(cudaMemset(in, 1, bytes));
  auto memcpy_f = [&] { CK(cudaMemcpyAsync(ref, in, bytes, cudaMemcpyDeviceToDevice)); };
  struct V { const char* name; std::function<void()> f; };
  std::vector<V> copies = {
    {"textbook copy, 32x32 blocks", [&] { copy_32x32<<<dim3(Cc / 32, R / 32), dim3(32, 32)>>>(in, out, R, Cc); }},
    {"lab 1 solution copy_matrix (32x8)", [&] { copy_matrix(in, out, R, Cc); }},
    {"lab 1 solution copy_matrix_strided (x4)", [&] { copy_matrix_strided(in, out, R, Cc); }},
    {"BONUS copy_matrix_fast (float4 grid-stride)", [&] { copy_matrix_fast(in, out, R, Cc); }},
  };
  for (auto& v : copies) for (int round = 1; round <= 2; ++round) {
    CK(cudaMemset(out, 0, bytes));
    auto [r, s] = alternate(memcpy_f, v.f, 30);
    std::vector<unsigned char> h(bytes / 64); bool ok = true;
    for (size_t off = 0; off < bytes && ok; off += h.size()) {
      CK(cudaMemcpy(h.data(), (char*)out + off, h.size(), cudaMemcpyDeviceToHost));
      ok = std::all_of(h.begin(), h.end(), [](unsigned char c) { return c == 1; }); }
    double gbs = 2.0 * bytes / (s.med * 1e-3) / 1e9, rgbs = 2.0 * bytes / (r.med * 1e-3) / 1e9;
    printf("COPY   %-44s round %d | %.4f ms %5.0f GB/s spread %.2f%% | memcpy %.4f ms %5.0f GB/s spread %.2f%% | %.1f%% of memcpy %s\n",
           v.name, round, s.med, gbs, 100 * s.spread, r.med, rgbs, 100 * r.spread, 100 * gbs / rgbs, ok ? "exact" : "WRONG");
  }
  const int n = 16384; float *A, *C; CK(cudaMalloc(&C, n * 4)); CK(cudaMalloc(&A, n * 4));
  { std::vector<float> hc(n, 1.0f); CK(cudaMemcpy(C, hc.data(), n * 4, cudaMemcpyHostToDevice));
    std::vector<float> hb(N); for (size_t i = 0; i < N; ++i) hb[i] = (float)((i * 7 + i / n) % 5) - 2.0f;
    CK(cudaMemcpy(in, hb.data(), bytes, cudaMemcpyHostToDevice)); }
  const double moved = 4.0 * ((double)n * n + 2.0 * n);
  std::vector<V> mvs = {{"lab 4 solution matvec (thread per row)", [&] { matvec(A, in, C, n); }},
                        {"BONUS matvec_fast (warp per row, float4)", [&] { matvec_fast(A, in, C, n); }}};
  std::vector<float> first;
  for (auto& v : mvs) for (int round = 1; round <= 2; ++round) {
    auto [r, s] = alternate(memcpy_f, v.f, 30);
    std::vector<float> got(n); CK(cudaMemcpy(got.data(), A, n * 4, cudaMemcpyDeviceToHost));
    if (first.empty()) first = got;
    double gbs = moved / (s.med * 1e-3) / 1e9, rgbs = 2.0 * bytes / (r.med * 1e-3) / 1e9;
    printf("MATVEC %-44s round %d | %.4f ms %5.0f GB/s spread %.2f%% | memcpy %.4f ms %5.0f GB/s spread %.2f%% | %.1f%% of memcpy %s\n",
           v.name, round, s.med, gbs, 100 * s.spread, r.med, rgbs, 100 * r.spread, 100 * gbs / rgbs, got == first ? "exact" : "WRONG");
  }
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(A)); CK(cudaFree(C));

  cublasHandle_t h; cublasCreate(&h); cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
  struct Shape { int m, k, n, rounds; };
  for (auto sh : std::vector<Shape>{{4096, 4096, 4096, 2}, {8192, 4096, 2048, 2}, {2048, 4096, 8192, 2}, {4096, 1024, 8192, 2}, {4097, 4095, 4099, 1}}) {
    const int m = sh.m, k = sh.k, nn = sh.n;
    float *dA, *dB, *dC, *dR; CK(cudaMalloc(&dA, (size_t)m * k * 4)); CK(cudaMalloc(&dB, (size_t)k * nn * 4));
    CK(cudaMalloc(&dC, (size_t)m * nn * 4)); CK(cudaMalloc(&dR, (size_t)m * nn * 4));
    std::vector<float> ha((size_t)m * k), hb((size_t)k * nn);
    srand(1); for (auto& x : ha) x = (float)(rand() % 5 - 2); for (auto& x : hb) x = (float)(rand() % 3 - 1);
    CK(cudaMemcpy(dA, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    const float one = 1, zero = 0; const double flops = 2.0 * m * nn * (double)k;
    auto cub = [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, nn, m, k, &one, dB, nn, dA, k, &zero, dR, nn); };
    auto own = [&] { sgemm(dA, dB, dC, m, k, nn); };
    for (int round = 1; round <= sh.rounds; ++round) {
      auto [r, s] = alternate(cub, own, 20);
      std::vector<float> got((size_t)m * nn), want(got.size());
      CK(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(want.data(), dR, want.size() * 4, cudaMemcpyDeviceToHost));
      printf("SGEMM  %5dx%5dx%5d (m x k x n) round %d | %.3f ms %.2f TFLOP/s spread %.2f%% | cuBLAS FP32 %.3f ms %.2f TFLOP/s spread %.2f%% | %.1f%% of cuBLAS %s\n",
             m, k, nn, round, s.med, flops / s.med / 1e9, 100 * s.spread, r.med, flops / r.med / 1e9, 100 * r.spread, 100 * r.med / s.med, got == want ? "exact" : "WRONG");
    }
    CK(cudaFree(dA)); CK(cudaFree(dB)); CK(cudaFree(dC)); CK(cudaFree(dR));
  }
  return 0;
}
