// What compute-sanitizer's text report says about a submission's kernels, and the sentence that
// tells the student. labgrade batch runs each lab program under compute-sanitizer (memcheck;
// racecheck for shared-memory labs) on each correctness check's first case; a finding fails its
// check. The output mixes the sanitizer's "========= " lines with everything the lab program
// printed, kernels' printf included, so the parser takes what it understands, ignores the rest and
// never throws: a line a student prints can add a finding, never take a real one away.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contract/device_buffer_note.hpp"

namespace batch {

struct SanitizerFinding {
  std::string tool;   // "memcheck" or "racecheck"
  std::string check;  // "AnySize.Integers"; "" when not known
  // The sanitizer's words: "Invalid __global__ read of size 4 bytes" (", misaligned" appended
  // when the address was misaligned rather than out of bounds), a hardware exception ("Warp
  // Misaligned Address"), or for a race "Race between a write (line 18) and a read (line 19) of
  // shared memory" (no "(line N)" when the line is not known).
  std::string what;
  std::string kernel;  // "MatMulAnyKernel" (name without the parameter list and offset)
  std::string file;    // "no_load_bounds_check.cu": the file name only, never a directory
  int line = 0;        // 0: not known (no -lineinfo); for a race, the first access's line
  std::string thread;  // "(1,0,0)", "" for races
  std::string block;   // "(0,0,0)"
  std::optional<std::uint64_t> address;        // the bad access
  std::optional<std::uint64_t> nearest_base;   // "nearest allocation at"
  std::optional<std::uint64_t> nearest_bytes;  // "of size"
  int like_it =
      0;  // more reports of the same kind at the same line and check, merged into this one
  int other_line = 0;  // racecheck: the other access's line (0: not known)
  std::uint64_t hazards =
      0;  // racecheck: hazards between the two lines, over all their instructions
};

// Findings in the order they appear, same kind/line/check merged (like_it counts the rest).
// `tool` is the sanitizer tool that ran ("memcheck" reads memory errors only, "racecheck" races
// only, anything else both). A memcheck finding belongs to the check whose gtest body launched the
// kernel (the host backtrace's "Suite_Name_Test::TestBody()", mapped back through `check_ids`);
// a race, which has no backtrace, or a memcheck finding without one, to the check of the nearest
// "[ RUN      ] Suite.Name" line before it (one of `check_ids` when they are given), else "".
std::vector<SanitizerFinding> parse_sanitizer_output(std::string_view tool, std::string_view output,
                                                     const std::vector<std::string>& check_ids);

// One sentence for the student. `buffers` are the lab's buffers as the kernels saw them
// (contract/device_buffer_note.hpp), from the pass's record notes. A finding in one of
// `student_files` ("kernel.cu") names the file and line; elsewhere only the kernel. E.g.
// "compute-sanitizer memcheck: kernel.cu:21 (MatMulAnyKernel), thread (1,0,0) of block (0,0,0):
// invalid read of 4 bytes at B + 8 bytes (B[2]), 4 bytes past the end of B (B holds 1 float,
// 4 bytes) and 3 more like it";
// "compute-sanitizer racecheck: kernel.cu:18 and kernel.cu:19 (MatrixMulKernel): a write and a
// read of the same shared memory without a __syncthreads() between them (960 hazards)".
std::string describe_finding(const SanitizerFinding& finding,
                             const std::vector<contract::DeviceBufferPlace>& buffers,
                             const std::vector<std::string>& student_files);

}  // namespace batch
