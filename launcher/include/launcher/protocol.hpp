// What the lab program and the student's launcher process say to each other (over wire.hpp).
//
// launcher -> program, once:  {"hello": {"fatbins": [bin...], "kernels": [{"module", "name"}],
//                              "variables": [{"module", "name", "size"}], "defines": [name...]}}
// program -> launcher, once:  {"kernels": {"<module>:<name>": {"offsets": [...], "sizes": [...],
//                              "attributes": {...}}}, "device": {...}}
// program -> launcher:        {"call": name, "args": bin}
// launcher -> program:        {"ops": [op...]}  (what the launcher asked of the "GPU", in order)
//
// Under the CPU emulation (emulated_launcher_main.cu) the launcher runs the kernels itself:
// launcher -> program, once:  {"hello": {"defines": [name...]}}
// program -> launcher, once:  {"emulation": {"schedule", "seed", "threads", "seed_given",
//                              "race_check", "evidence"}}
// program -> launcher:        {"call": name, "args": bin, "slots": [[offset, bytes, name,
//                              payload offset, payload bytes, element]...], "shared_fill": value
//                              (optional); element: "float" or "int", the words of memory errors
// launcher -> program:        {"launches": [...], "memory_copies": n, "error": {...} (optional),
//                              "memory_error": words (optional: an access outside a buffer),
//                              "shared_race": words (optional: a race on shared memory),
//                              "evidence": [{"kind", "file", "line", "kernel", "words", "figure",
//                              "ideal"}...] (optional: what the emulator measured in the
//                              kernels, emu::take_evidence; feedback only, it fails nothing)}
//
// Device addresses in the launcher are fake: region r of the fake space stands for one buffer of
// the lab program (r < kFirstLauncherRegion) or one cudaMalloc of the launcher. Nothing in the
// launcher is secret, so the layout is fixed and public.
#pragma once

#include <cstdint>

namespace launcher_protocol {

constexpr int kChannelFd = 3;

// Under the CPU emulation the student's kernels run in the launcher, over copies of the call's
// buffers in a shared arena (a memory file on fd 4) that both processes map at the same address,
// so the lab program's pointers into it are the launcher's too. Each buffer sits between
// inaccessible gaps, as the emulator's own allocations do.
constexpr int kArenaFd = 4;
constexpr std::uint64_t kArenaAddress = std::uint64_t{0x2000} << 32;
constexpr std::uint64_t kArenaBytes = std::uint64_t{4} << 30;
constexpr std::uint64_t kArenaGap = std::uint64_t{64} << 10;

constexpr unsigned kRegionShift = 36;  // 64 GiB a region: larger than any lab's buffer
constexpr std::uint64_t kRegionBytes = std::uint64_t{1} << kRegionShift;
constexpr std::uint64_t kRegionCount = std::uint64_t{1} << 16;
constexpr std::uint64_t kFirstLauncherRegion = std::uint64_t{1} << 15;
// Non-canonical on x86-64: a launcher that dereferences a device pointer on the host crashes.
constexpr std::uint64_t kFakeBase = std::uint64_t{0x4000} << 48;

constexpr std::uint64_t fake_address(std::uint64_t region, std::uint64_t offset) {
  return kFakeBase + (region << kRegionShift) + offset;
}
constexpr bool is_fake(std::uint64_t address) {
  return address >= kFakeBase && address - kFakeBase < (kRegionCount << kRegionShift);
}
constexpr std::uint64_t region_of(std::uint64_t address) {
  return (address - kFakeBase) >> kRegionShift;
}
constexpr std::uint64_t offset_of(std::uint64_t address) {
  return (address - kFakeBase) & (kRegionBytes - 1);
}

// Caps on what one launcher call may ask for.
constexpr std::uint64_t kMaxUploadBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kMaxOpsPerCall = 100000;

}  // namespace launcher_protocol
