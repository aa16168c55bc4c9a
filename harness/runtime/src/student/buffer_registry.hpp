// The lab program's device buffers that may be passed to a student's contract function: each has
// a region of the launcher's fake address space (launcher/protocol.hpp) and, once used, a shadow
// copy in the student's CUDA context.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace harness::student {

struct RegisteredBuffer {
  std::uint64_t region = 0;
  std::uintptr_t base = 0;  // first byte of the allocation (front guard included)
  std::size_t bytes = 0;
  std::string name;
  // The part a kernel may use (without the guard zones): the emulation checks accesses against it.
  std::size_t payload_offset = 0;
  std::size_t payload_bytes = 0;
  // Its element type as C++ spells it ("float", "int"): the words of memory errors count in it.
  std::string element = "float";
};

void register_buffer(const void* base, std::size_t bytes, const std::string& name,
                     std::size_t payload_offset, std::size_t payload_bytes,
                     const std::string& element);
void forget_buffer(const void* base);

// The buffer that holds `address`, or null.
const RegisteredBuffer* find_buffer(std::uintptr_t address);
const RegisteredBuffer* buffer_in_region(std::uint64_t region);

// Called with the region of each buffer as it is freed (the runtime frees its shadow).
void on_forget(std::function<void(std::uint64_t region)> callback);

}  // namespace harness::student
