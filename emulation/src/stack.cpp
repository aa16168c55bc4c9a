#include "stack.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <new>

namespace emu::detail {

Stack::Stack(std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  guard_ = page;
  total_ = (bytes + page - 1) / page * page + guard_;
  void* memory = mmap(nullptr, total_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  base_ = static_cast<char*>(memory);
  mprotect(base_, guard_, PROT_NONE);
}

Stack::~Stack() { munmap(base_, total_); }

std::size_t fiber_stack_bytes() {
  static const std::size_t bytes = [] {
    if (const char* text = std::getenv("LABS_EMU_STACK_KIB"); text && *text) {
      const long kib = std::strtol(text, nullptr, 10);
      if (kib >= 16) return static_cast<std::size_t>(kib) * 1024;
    }
    return std::size_t{128 * 1024};
  }();
  return bytes;
}

}  // namespace emu::detail
