#include "warp_ops.hpp"

#include <bit>
#include <cstdio>
#include <vector>

namespace emu::detail {
namespace {

// The lane whose var a shuffle returns to `lane`, or `lane` itself where the Guide says the
// caller keeps its own value. The Guide's rules, with width w and the caller's segment
// [first, first + w):
//   __shfl_sync:      srcLane modulo w within the segment;
//   __shfl_up_sync:   lane - delta, unless that falls below the segment;
//   __shfl_down_sync: lane + delta, unless that falls beyond the segment;
//   __shfl_xor_sync:  lane ^ laneMask, unless that lies in a later segment (earlier ones are
//                     allowed) or outside the warp.
long long source_lane(unsigned lane, const WarpCall& call) {
  const long long width = call.width;
  const long long first = static_cast<long long>(lane) & ~(width - 1);
  const long long last = first + width - 1;
  switch (call.op) {
    case WarpOp::shfl:
      return first + (call.operand & (width - 1));
    case WarpOp::shfl_up: {
      const long long source = static_cast<long long>(lane) - call.operand;
      return source >= first ? source : lane;
    }
    case WarpOp::shfl_down: {
      const long long source = static_cast<long long>(lane) + call.operand;
      return source <= last ? source : lane;
    }
    case WarpOp::shfl_xor: {
      const long long source = static_cast<long long>(lane) ^ call.operand;
      return source >= 0 && source <= last ? source : lane;
    }
    default:
      return lane;
  }
}

std::uint32_t reduce(unsigned mask, const WarpCalls& calls, WarpOp op, bool is_signed) {
  const auto less = [is_signed](std::uint32_t a, std::uint32_t b) {
    return is_signed ? static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b) : a < b;
  };
  const int first = std::countr_zero(mask);
  auto result = static_cast<std::uint32_t>(calls[first]->value);
  for (unsigned lanes = mask & (mask - 1); lanes != 0; lanes &= lanes - 1) {
    const auto value = static_cast<std::uint32_t>(calls[std::countr_zero(lanes)]->value);
    switch (op) {
      case WarpOp::reduce_add:
        result += value;  // modulo 2^32, for int as for unsigned
        break;
      case WarpOp::reduce_min:
        if (less(value, result)) result = value;
        break;
      case WarpOp::reduce_max:
        if (less(result, value)) result = value;
        break;
      case WarpOp::reduce_and:
        result &= value;
        break;
      case WarpOp::reduce_or:
        result |= value;
        break;
      default:
        result ^= value;
        break;
    }
  }
  return result;
}

}  // namespace

bool is_shuffle(WarpOp op) {
  return op == WarpOp::shfl || op == WarpOp::shfl_up || op == WarpOp::shfl_down ||
         op == WarpOp::shfl_xor;
}

bool valid_width(int width) {
  return width >= 1 && width <= 32 && std::has_single_bit(static_cast<unsigned>(width));
}

std::uint64_t warp_result(unsigned lane, unsigned mask, const WarpCalls& calls) {
  const WarpCall& call = *calls[lane];
  if (is_shuffle(call.op)) {
    // A source lane outside the mask does not take part: the GPU returns an undefined value,
    // the emulator the caller's own.
    const long long source = source_lane(lane, call);
    if (source < 0 || source >= static_cast<long long>(kWarpSize) || !(mask >> source & 1u)) {
      return call.value;
    }
    return calls[source]->value;
  }
  unsigned ballot = 0;
  switch (call.op) {
    case WarpOp::ballot:
    case WarpOp::any:
    case WarpOp::all:
      for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1) {
        const int other = std::countr_zero(lanes);
        if (calls[other]->value != 0) ballot |= 1u << other;
      }
      if (call.op == WarpOp::any) return ballot != 0;
      if (call.op == WarpOp::all) return ballot == mask;
      return ballot;
    case WarpOp::reduce_add:
    case WarpOp::reduce_min:
    case WarpOp::reduce_max:
    case WarpOp::reduce_and:
    case WarpOp::reduce_or:
    case WarpOp::reduce_xor:
      return reduce(mask, calls, call.op, call.operand != 0);
    default:
      return 0;  // __syncwarp
  }
}

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::shfl:
      return "__shfl_sync";
    case WarpOp::shfl_up:
      return "__shfl_up_sync";
    case WarpOp::shfl_down:
      return "__shfl_down_sync";
    case WarpOp::shfl_xor:
      return "__shfl_xor_sync";
    case WarpOp::ballot:
      return "__ballot_sync";
    case WarpOp::any:
      return "__any_sync";
    case WarpOp::all:
      return "__all_sync";
    case WarpOp::syncwarp:
      return "__syncwarp";
    case WarpOp::activemask:
      return "__activemask";
    case WarpOp::reduce_add:
      return "__reduce_add_sync";
    case WarpOp::reduce_min:
      return "__reduce_min_sync";
    case WarpOp::reduce_max:
      return "__reduce_max_sync";
    case WarpOp::reduce_and:
      return "__reduce_and_sync";
    case WarpOp::reduce_or:
      return "__reduce_or_sync";
    case WarpOp::reduce_xor:
      return "__reduce_xor_sync";
  }
  return "a warp function";
}

std::string lanes_text(unsigned lanes) {
  std::vector<std::string> pieces;
  for (unsigned lane = 0; lane < kWarpSize; ++lane) {
    if (!(lanes >> lane & 1u)) continue;
    unsigned end = lane;
    while (end + 1 < kWarpSize && (lanes >> (end + 1) & 1u)) ++end;
    pieces.push_back(end == lane ? std::to_string(lane)
                                 : std::to_string(lane) + "-" + std::to_string(end));
    lane = end;
  }
  if (pieces.empty()) return "no lane";
  std::string text = std::popcount(lanes) == 1 ? "lane " : "lanes ";
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) text += i + 1 == pieces.size() ? " and " : ", ";
    text += pieces[i];
  }
  return text;
}

std::string mask_text(unsigned mask) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", mask);
  return text;
}

}  // namespace emu::detail
