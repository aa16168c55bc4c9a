// Warp-level functions as kernel code sees them: warpSize, the shuffles, votes and reductions,
// __syncwarp() and __activemask().
//
// A warp is 32 consecutive linear thread ids of a block (threadIdx.x fastest). The threads of a
// block are fibers that run one at a time, so every one of these is a rendezvous: the calling
// lane publishes its operands and yields, and once every lane named in the mask has arrived the
// block runner checks that they all called the same function at the same line with the same mask,
// and hands each its result (emulation/src/warp_rendezvous.cpp). A mask that names a lane which
// has returned, or lanes waiting elsewhere, fails the launch with the line instead of hanging.
//
// Each function takes the caller's source location as a hidden last argument (a default
// argument is evaluated where the function is called), so messages name kernel.cu and its line.
#pragma once

#include <cstdint>
#include <cstring>
#include <source_location>

inline constexpr int warpSize = 32;

namespace emu::detail {

enum class WarpOp : std::uint8_t {
  shfl,
  shfl_up,
  shfl_down,
  shfl_xor,
  ballot,
  any,
  all,
  syncwarp,
  activemask,
  reduce_add,
  reduce_min,
  reduce_max,
  reduce_and,
  reduce_or,
  reduce_xor,
};

// What one lane brings to a warp collective.
struct WarpCall {
  WarpOp op;
  unsigned mask;        // the lanes that call it together (ignored by __activemask)
  std::uint64_t value;  // the lane's var (its bytes), predicate or value to reduce
  long long operand;    // srcLane, delta or laneMask; for reductions 1 when the values are signed
  int width;            // shuffles: the size of the lane segments
  const char* file;
  int line;
};

// Waits until the collective is complete and returns this lane's result (outside a kernel: the
// result of a warp of one).
std::uint64_t warp_collective(const WarpCall& call);

template <class T>
inline T warp_shuffle(WarpOp op, unsigned mask, T var, long long operand, int width,
                      const std::source_location& where) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t));
  std::uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = warp_collective(
      {op, mask, bits, operand, width, where.file_name(), static_cast<int>(where.line())});
  T result;
  std::memcpy(&result, &bits, sizeof(T));
  return result;
}

inline std::uint64_t warp_call(WarpOp op, unsigned mask, std::uint64_t value, long long operand,
                               const std::source_location& where) {
  return warp_collective(
      {op, mask, value, operand, warpSize, where.file_name(), static_cast<int>(where.line())});
}

}  // namespace emu::detail

#define EMU_HERE std::source_location where = std::source_location::current()

// The types of the Programming Guide's "Warp Shuffle Functions" (no __half here).
#define EMU_WARP_SHUFFLES(T)                                                                      \
  inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize, EMU_HERE) {       \
    return ::emu::detail::warp_shuffle(::emu::detail::WarpOp::shfl, mask, var, srcLane, width,    \
                                       where);                                                    \
  }                                                                                               \
  inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize,         \
                          EMU_HERE) {                                                             \
    return ::emu::detail::warp_shuffle(::emu::detail::WarpOp::shfl_up, mask, var, delta, width,   \
                                       where);                                                    \
  }                                                                                               \
  inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize,       \
                            EMU_HERE) {                                                           \
    return ::emu::detail::warp_shuffle(::emu::detail::WarpOp::shfl_down, mask, var, delta, width, \
                                       where);                                                    \
  }                                                                                               \
  inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize, EMU_HERE) {  \
    return ::emu::detail::warp_shuffle(::emu::detail::WarpOp::shfl_xor, mask, var, laneMask,      \
                                       width, where);                                             \
  }
EMU_WARP_SHUFFLES(int)
EMU_WARP_SHUFFLES(unsigned int)
EMU_WARP_SHUFFLES(long)
EMU_WARP_SHUFFLES(unsigned long)
EMU_WARP_SHUFFLES(long long)
EMU_WARP_SHUFFLES(unsigned long long)
EMU_WARP_SHUFFLES(float)
EMU_WARP_SHUFFLES(double)
#undef EMU_WARP_SHUFFLES

inline unsigned int __ballot_sync(unsigned mask, int predicate, EMU_HERE) {
  return static_cast<unsigned int>(
      ::emu::detail::warp_call(::emu::detail::WarpOp::ballot, mask, predicate != 0, 0, where));
}
inline int __any_sync(unsigned mask, int predicate, EMU_HERE) {
  return static_cast<int>(
      ::emu::detail::warp_call(::emu::detail::WarpOp::any, mask, predicate != 0, 0, where));
}
inline int __all_sync(unsigned mask, int predicate, EMU_HERE) {
  return static_cast<int>(
      ::emu::detail::warp_call(::emu::detail::WarpOp::all, mask, predicate != 0, 0, where));
}
inline void __syncwarp(unsigned mask = 0xffffffffu, EMU_HERE) {
  ::emu::detail::warp_call(::emu::detail::WarpOp::syncwarp, mask, 0, 0, where);
}
// The lanes of the warp that reached this same __activemask() call: it waits until no lane of
// the block can run on, so lanes on the other side of a branch are not in it, as on a GPU.
inline unsigned int __activemask(EMU_HERE) {
  return static_cast<unsigned int>(
      ::emu::detail::warp_call(::emu::detail::WarpOp::activemask, 0, 0, 0, where));
}

// __reduce_*_sync (compute capability 8.0 and newer): the operation over the lanes of the mask.
#define EMU_WARP_REDUCE(NAME, OP, T, SIGNED)                                                 \
  inline T NAME(unsigned mask, T value, EMU_HERE) {                                          \
    return static_cast<T>(::emu::detail::warp_call(                                          \
        ::emu::detail::WarpOp::OP, mask, static_cast<std::uint32_t>(value), SIGNED, where)); \
  }
EMU_WARP_REDUCE(__reduce_add_sync, reduce_add, unsigned int, 0)
EMU_WARP_REDUCE(__reduce_add_sync, reduce_add, int, 1)
EMU_WARP_REDUCE(__reduce_min_sync, reduce_min, unsigned int, 0)
EMU_WARP_REDUCE(__reduce_min_sync, reduce_min, int, 1)
EMU_WARP_REDUCE(__reduce_max_sync, reduce_max, unsigned int, 0)
EMU_WARP_REDUCE(__reduce_max_sync, reduce_max, int, 1)
EMU_WARP_REDUCE(__reduce_and_sync, reduce_and, unsigned int, 0)
EMU_WARP_REDUCE(__reduce_or_sync, reduce_or, unsigned int, 0)
EMU_WARP_REDUCE(__reduce_xor_sync, reduce_xor, unsigned int, 0)
#undef EMU_WARP_REDUCE
#undef EMU_HERE
