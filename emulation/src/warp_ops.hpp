// The results of a warp collective once all the lanes of its mask have arrived, as the CUDA C++
// Programming Guide defines them ("Warp Shuffle Functions", "Warp Vote Functions", "Warp Reduce
// Functions"), and the words the emulator's messages use for them.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "emu/warp.hpp"

namespace emu::detail {

constexpr unsigned kWarpSize = 32;

// Each lane's call, by lane; null for lanes outside the mask.
using WarpCalls = std::array<const WarpCall*, kWarpSize>;

// The result for `lane` of the collective that the lanes of `mask` called together (every lane of
// the mask has its call in `calls`, all with the same op). __activemask is the block runner's.
std::uint64_t warp_result(unsigned lane, unsigned mask, const WarpCalls& calls);

bool is_shuffle(WarpOp op);
// A shuffle's width must be a power of 2 from 1 to 32.
bool valid_width(int width);
// "__shfl_down_sync"
const char* warp_op_name(WarpOp op);
// "lane 5", "lanes 20-31", "lanes 0-3, 8 and 10-11"
std::string lanes_text(unsigned lanes);
// "0x0000ffff"
std::string mask_text(unsigned mask);

}  // namespace emu::detail
