// Words the emulator's reports share (access_check.cpp, shared_race_report.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "emu/types.hpp"

namespace emu::detail {

// 1234567 -> "1,234,567". A deliberate copy of common::grouped (common/numbers.hpp): the
// emulator links no library of the project, because a grading kit links a launcher with the
// emulator's archive alone (cmake/GradingKit.cmake).
std::string grouped(std::uint64_t number);
// "1 byte", "1,024 bytes"
std::string bytes_text(std::uint64_t bytes);
// "(0,2,0)", as compute-sanitizer writes a thread and a block.
std::string triple(const uint3& v);
// "Nds[2][3] (Nds + 140 bytes)" for a static __shared__ array, "the dynamic shared memory + 140
// bytes" without a shape (shared_race_report.cpp).
struct SharedArrayShape;
std::string shared_place_text(const char* name, const SharedArrayShape* shape, std::size_t offset);

}  // namespace emu::detail
