// What kernel code sees: the built-in indices, __syncthreads(), shared memory, atomics and (in
// warp.hpp) the warp-level functions.
//
// The indices are thread_local variables that the scheduler sets before it switches to a
// thread's fiber. Fibers never move between OS threads and an OS thread runs one block at a
// time, so a `static thread_local` variable (what __shared__ expands to) is per block.
#pragma once

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "emu/access.hpp"
#include "emu/types.hpp"
#include "emu/warp.hpp"

// Constant-initialized and inline, so kernel code reads them straight from thread-local storage.
inline thread_local uint3 threadIdx{0, 0, 0};
inline thread_local uint3 blockIdx{0, 0, 0};
inline thread_local dim3 blockDim{1, 1, 1};
inline thread_local dim3 gridDim{1, 1, 1};

namespace emu {
namespace detail {
// Waits until every thread of the block has arrived at this __syncthreads(). A barrier that only
// part of the block reaches (others exited, or wait at another line) fails the launch.
void barrier(const char* file, int line);
int barrier_reduce(int predicate, int mode, const char* file,
                   int line);  // mode: 0 count, 1 and, 2 or
void note_shared(const void* address, std::size_t bytes);
void* dynamic_shared_base();
}  // namespace detail

// Called after each __shared__ declaration in a kernel (the rewriter inserts the calls): the
// launch recorder reports the sum over distinct variables as the kernel's static shared memory.
template <class T>
inline void note_shared(T& variable) {
  detail::note_shared(static_cast<const void*>(&variable), sizeof(T));
}

// extern __shared__ arrays: the block's dynamic shared memory, sized by the launch.
template <class T>
inline T* dynamic_shared() {
  return static_cast<T*>(detail::dynamic_shared_base());
}
}  // namespace emu

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __shared__ static thread_local
#define __forceinline__ inline
#define __launch_bounds__(...)
// GNU spelling: unlike alignas it may stand among the decl-specifiers, after __shared__.
#define __align__(n) __attribute__((aligned(n)))
#define __syncthreads() ::emu::detail::barrier(__FILE__, __LINE__)
#define __syncthreads_count(p) ::emu::detail::barrier_reduce((p) ? 1 : 0, 0, __FILE__, __LINE__)
#define __syncthreads_and(p) ::emu::detail::barrier_reduce((p) ? 1 : 0, 1, __FILE__, __LINE__)
#define __syncthreads_or(p) ::emu::detail::barrier_reduce((p) ? 1 : 0, 2, __FILE__, __LINE__)

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
// A pause in a spin loop: nothing to wait for here (threads switch only at barriers and warp
// functions).
inline void __nanosleep(unsigned int) {}
inline long long clock64() { return std::chrono::steady_clock::now().time_since_epoch().count(); }
template <class T>
inline T __ldg(const T* pointer) {
  return *pointer;
}

// ---- atomics: relaxed read-modify-writes, as on the GPU ------------------------------------
namespace emu::detail {
template <class T>
inline std::atomic_ref<T> atomic(T* address) {
  access_bounds.wrote = true;  // an atomic is work done, for the evidence's idle blocks
  return std::atomic_ref<T>(*address);
}
template <class T, class F>
inline T atomic_update(T* address, F update) {
  auto ref = atomic(address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_relaxed)) {
  }
  return old;
}
}  // namespace emu::detail

#define EMU_ATOMIC_ADD(T)                                                              \
  inline T atomicAdd(T* address, T value) {                                            \
    return ::emu::detail::atomic(address).fetch_add(value, std::memory_order_relaxed); \
  }                                                                                    \
  inline T atomicSub(T* address, T value) {                                            \
    return ::emu::detail::atomic(address).fetch_sub(value, std::memory_order_relaxed); \
  }                                                                                    \
  inline T atomicExch(T* address, T value) {                                           \
    return ::emu::detail::atomic(address).exchange(value, std::memory_order_relaxed);  \
  }
EMU_ATOMIC_ADD(int)
EMU_ATOMIC_ADD(unsigned int)
EMU_ATOMIC_ADD(unsigned long long)
EMU_ATOMIC_ADD(float)
EMU_ATOMIC_ADD(double)
#undef EMU_ATOMIC_ADD

#define EMU_ATOMIC_INTEGER(T)                                                              \
  inline T atomicMin(T* address, T value) {                                                \
    return ::emu::detail::atomic_update(address,                                           \
                                        [&](T old) { return old < value ? old : value; }); \
  }                                                                                        \
  inline T atomicMax(T* address, T value) {                                                \
    return ::emu::detail::atomic_update(address,                                           \
                                        [&](T old) { return old > value ? old : value; }); \
  }                                                                                        \
  inline T atomicAnd(T* address, T value) {                                                \
    return ::emu::detail::atomic(address).fetch_and(value, std::memory_order_relaxed);     \
  }                                                                                        \
  inline T atomicOr(T* address, T value) {                                                 \
    return ::emu::detail::atomic(address).fetch_or(value, std::memory_order_relaxed);      \
  }                                                                                        \
  inline T atomicXor(T* address, T value) {                                                \
    return ::emu::detail::atomic(address).fetch_xor(value, std::memory_order_relaxed);     \
  }                                                                                        \
  inline T atomicCAS(T* address, T compare, T value) {                                     \
    ::emu::detail::atomic(address).compare_exchange_strong(compare, value,                 \
                                                           std::memory_order_relaxed);     \
    return compare;                                                                        \
  }
EMU_ATOMIC_INTEGER(int)
EMU_ATOMIC_INTEGER(unsigned int)
EMU_ATOMIC_INTEGER(unsigned long long)
EMU_ATOMIC_INTEGER(long long)
#undef EMU_ATOMIC_INTEGER

inline unsigned int atomicInc(unsigned int* address, unsigned int limit) {
  return ::emu::detail::atomic_update(
      address, [&](unsigned int old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned int atomicDec(unsigned int* address, unsigned int limit) {
  return ::emu::detail::atomic_update(
      address, [&](unsigned int old) { return (old == 0 || old > limit) ? limit : old - 1; });
}

// ---- math as CUDA spells it ----------------------------------------------------------------
inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }

// ---- bit intrinsics (what ballots are counted with) ---------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) {
  return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline unsigned int __brev(unsigned int x) {
  unsigned int reversed = 0;
  for (int bit = 0; bit < 32; ++bit) reversed |= ((x >> bit) & 1u) << (31 - bit);
  return reversed;
}
