// Where the student's kernels saw one of the lab's buffers, as a note of a record from labgrade
// batch's compute-sanitizer pass: the lab program writes it, labgrade reads it to say where a bad
// address lies ("4 bytes past the end of B"). The pass's records are never shown to a student.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace contract {

struct DeviceBufferPlace {
  std::string name;           // the lab's name for it: "A", "B", "C"
  std::uint64_t address = 0;  // in the student's CUDA context
  std::size_t bytes = 0;
  // What it holds, as C++ spells it ("float", "int"): offsets are also shown as its indexes.
  std::string element = "float";
};

// "device buffer C at 0x7f5a2c000000, 4096 bytes"; for a buffer of another element type,
// "device buffer col_index at 0x7f5a2c000000, 4096 bytes of int".
std::string device_buffer_note(const DeviceBufferPlace& place);
// The place a note names; nothing for any other note.
std::optional<DeviceBufferPlace> parse_device_buffer_note(std::string_view note);

}  // namespace contract
