// Device memory is host memory here. Every allocation gets its own mapping with inaccessible
// pages on both sides, so that a kernel running far outside an allocation faults (and is reported
// as cudaErrorIllegalAddress) instead of quietly corrupting the heap; small overruns land in the
// harness's guard zones as on a GPU.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>

#include "emu/runtime_api.hpp"
#include "state.hpp"

namespace emu::detail {
namespace {

constexpr std::size_t kGuardBytes = 64 * 1024;

struct Mapping {
  char* mapping;
  std::size_t mapping_bytes;
  std::size_t bytes;  // what was asked for
  // What kernels may use, for the bounds checks: all of it, unless check_device_memory names a
  // part (a lab's buffer without its guard zones).
  std::size_t payload_offset = 0;
  std::size_t payload_bytes = 0;
  std::string name = "buffer";
  std::string element = "float";
};

// How far outside adopted memory an access is still taken as meant for it (half the launcher's
// gap between the lab's buffers, launcher/protocol.hpp).
constexpr std::size_t kAdoptedZone = 32 * 1024;

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

class Allocations {
 public:
  static Allocations& get() {
    static Allocations allocations;
    return allocations;
  }

  void* allocate(std::size_t bytes) {
    const std::size_t page = page_size();
    const std::size_t usable = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
    const std::size_t total = usable + 2 * kGuardBytes;
    void* mapping =
        mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) return nullptr;
    char* start = static_cast<char*>(mapping) + kGuardBytes;
    if (mprotect(start, usable, PROT_READ | PROT_WRITE) != 0) {
      munmap(mapping, total);
      return nullptr;
    }
    std::unique_lock lock(mutex_);
    by_start_[start] = {static_cast<char*>(mapping), total, bytes, 0, bytes};
    return start;
  }

  bool release(void* pointer) {
    Mapping mapping;
    {
      std::unique_lock lock(mutex_);
      const auto it = by_start_.find(static_cast<char*>(pointer));
      if (it == by_start_.end() || it->second.mapping == nullptr) return false;
      mapping = it->second;
      by_start_.erase(it);
    }
    munmap(mapping.mapping, mapping.mapping_bytes);
    return true;
  }

  void adopt(void* start, std::size_t bytes) {
    std::unique_lock lock(mutex_);
    by_start_[static_cast<char*>(start)] = {nullptr, 0, bytes, 0, bytes};
  }

  void name_payload(void* start, std::size_t offset, std::size_t bytes, const std::string& name,
                    const std::string& element) {
    std::unique_lock lock(mutex_);
    const auto it = by_start_.find(static_cast<char*>(start));
    if (it == by_start_.end() || offset > it->second.bytes || bytes > it->second.bytes - offset) {
      return;
    }
    it->second.payload_offset = offset;
    it->second.payload_bytes = bytes;
    it->second.name = name;
    it->second.element = element;
  }

  void snapshot(CheckedRegions& out) const {
    std::shared_lock lock(mutex_);
    out.regions.clear();
    out.names.clear();
    for (const auto& [start, m] : by_start_) {
      out.names.push_back(m.name);
      const char* name = out.names.back().c_str();
      out.names.push_back(m.element);
      const char* begin = start + m.payload_offset;
      const std::size_t page = page_size();
      const char* zone_begin = m.mapping ? m.mapping : start - kAdoptedZone;
      const char* zone_end = m.mapping ? m.mapping + m.mapping_bytes
                                       : start + (m.bytes + page - 1) / page * page + kAdoptedZone;
      out.regions.push_back(
          {begin, begin + m.payload_bytes, zone_begin, zone_end, name, out.names.back().c_str()});
    }
  }

  void forget(void* start) {
    std::unique_lock lock(mutex_);
    const auto it = by_start_.find(static_cast<char*>(start));
    if (it != by_start_.end() && it->second.mapping == nullptr) by_start_.erase(it);
  }

  std::optional<std::pair<const void*, std::size_t>> find(const void* pointer) const {
    std::shared_lock lock(mutex_);
    const char* p = static_cast<const char*>(pointer);
    auto it = by_start_.upper_bound(const_cast<char*>(p));
    if (it == by_start_.begin()) return std::nullopt;
    --it;
    if (p >= it->first + std::max<std::size_t>(it->second.bytes, 1)) return std::nullopt;
    return std::pair<const void*, std::size_t>{it->first, it->second.bytes};
  }

  std::size_t total_bytes() const {
    std::shared_lock lock(mutex_);
    std::size_t total = 0;
    for (const auto& [start, mapping] : by_start_) total += mapping.bytes;
    return total;
  }

 private:
  mutable std::shared_mutex mutex_;
  std::map<char*, Mapping> by_start_;
};

cudaError_t allocate(void** pointer, std::size_t bytes) {
  if (const cudaError_t sticky = Errors::get().surface(); sticky != cudaSuccess) return sticky;
  if (!pointer) return Errors::get().set(cudaErrorInvalidValue);
  *pointer = Allocations::get().allocate(bytes);
  return *pointer ? cudaSuccess : Errors::get().set(cudaErrorMemoryAllocation);
}

cudaError_t release(void* pointer) {
  if (const cudaError_t sticky = Errors::get().surface(); sticky != cudaSuccess) return sticky;
  if (!pointer) return cudaSuccess;
  return Allocations::get().release(pointer) ? cudaSuccess
                                             : Errors::get().set(cudaErrorInvalidDevicePointer);
}

}  // namespace

void snapshot_checked_regions(CheckedRegions& out) { Allocations::get().snapshot(out); }

bool is_runtime_memory(const void* pointer) { return Allocations::get().find(pointer).has_value(); }

std::optional<std::pair<const void*, std::size_t>> allocation_of(const void* pointer) {
  return Allocations::get().find(pointer);
}

}  // namespace emu::detail

namespace emu {
namespace detail {
namespace {

// The adopted ranges and how many kernels or copies use them now.
struct Adopted {
  std::mutex mutex;
  std::map<char*, std::size_t> ranges;  // start -> bytes, page-rounded
  int users = 0;

  void protect(int protection) {
    for (const auto& [start, bytes] : ranges) mprotect(start, bytes, protection);
  }
  static Adopted& get() {
    static Adopted adopted;
    return adopted;
  }
};

bool in_adopted(const void* pointer, std::size_t bytes) {
  auto& adopted = Adopted::get();
  std::lock_guard lock(adopted.mutex);
  const char* p = static_cast<const char*>(pointer);
  for (const auto& [start, length] : adopted.ranges) {
    if (p + bytes > start && p < start + length) return true;
  }
  return false;
}

}  // namespace

DeviceMemoryAccess::DeviceMemoryAccess() {
  auto& adopted = Adopted::get();
  std::lock_guard lock(adopted.mutex);
  if (adopted.users++ == 0) adopted.protect(PROT_READ | PROT_WRITE);
}

DeviceMemoryAccess::~DeviceMemoryAccess() {
  auto& adopted = Adopted::get();
  std::lock_guard lock(adopted.mutex);
  if (--adopted.users == 0) adopted.protect(PROT_NONE);
}

const char* refused_copy(void* destination, const void* source, std::size_t bytes) {
  const bool to_device = is_runtime_memory(destination);
  const bool from_device = is_runtime_memory(source);
  if (from_device && !to_device && in_adopted(source, bytes)) {
    return "the launcher reads the lab's buffers back to the host: the work must be done by your "
           "kernel";
  }
  if (to_device && !from_device && in_adopted(destination, bytes)) {
    return "the launcher copies host data into the lab's buffers: they are written by your "
           "kernels only";
  }
  return nullptr;
}

}  // namespace detail

void adopt_device_memory(void* start, std::size_t bytes) {
  const std::size_t page = detail::page_size();
  const std::size_t rounded = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  detail::Allocations::get().adopt(start, bytes);
  auto& adopted = detail::Adopted::get();
  std::lock_guard lock(adopted.mutex);
  adopted.ranges[static_cast<char*>(start)] = rounded;
  mprotect(start, rounded, adopted.users > 0 ? PROT_READ | PROT_WRITE : PROT_NONE);
}

void check_device_memory(void* start, std::size_t payload_offset, std::size_t payload_bytes,
                         const std::string& name, const std::string& element) {
  detail::Allocations::get().name_payload(start, payload_offset, payload_bytes, name, element);
}

void forget_device_memory(void* start) {
  detail::Allocations::get().forget(start);
  auto& adopted = detail::Adopted::get();
  std::lock_guard lock(adopted.mutex);
  adopted.ranges.erase(static_cast<char*>(start));
}

void clear_errors() { detail::Errors::get().reset(); }

}  // namespace emu

using emu::detail::Errors;

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  return emu::detail::allocate(pointer, bytes);
}
cudaError_t cudaMallocManaged(void** pointer, std::size_t bytes, unsigned int) {
  return emu::detail::allocate(pointer, bytes);
}
cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  return emu::detail::allocate(pointer, bytes);
}
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned int) {
  return emu::detail::allocate(pointer, bytes);
}
cudaError_t cudaFree(void* pointer) { return emu::detail::release(pointer); }
cudaError_t cudaFreeHost(void* pointer) { return emu::detail::release(pointer); }

cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t) {
  if (const cudaError_t sticky = Errors::get().surface(); sticky != cudaSuccess) return sticky;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return Errors::get().set(cudaErrorInvalidMemcpyDirection);
  }
  if (bytes > 0 && (!destination || !source)) return Errors::get().set(cudaErrorInvalidValue);
  emu::detail::Recorder::get().add_copy(destination, source, bytes);
  if (const char* why = emu::detail::refused_copy(destination, source, bytes)) {
    Errors::get().explain(cudaErrorNotSupported, why);
    return Errors::get().set(cudaErrorNotSupported);
  }
  const emu::detail::DeviceMemoryAccess access;
  if (bytes > 0) std::memmove(destination, source, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes,
                       cudaMemcpyKind kind) {
  return cudaMemcpyAsync(destination, source, bytes, kind, nullptr);
}

cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  if (const cudaError_t sticky = Errors::get().surface(); sticky != cudaSuccess) return sticky;
  if (bytes > 0 && !pointer) return Errors::get().set(cudaErrorInvalidValue);
  const emu::detail::DeviceMemoryAccess access;
  if (bytes > 0) std::memset(pointer, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  return cudaMemsetAsync(pointer, value, bytes, nullptr);
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (const cudaError_t sticky = Errors::get().surface(); sticky != cudaSuccess) return sticky;
  const std::size_t total =
      static_cast<std::size_t>(sysconf(_SC_PHYS_PAGES)) * emu::detail::page_size();
  const std::size_t used = emu::detail::Allocations::get().total_bytes();
  if (free_bytes) *free_bytes = used < total ? total - used : 0;
  if (total_bytes) *total_bytes = total;
  return cudaSuccess;
}
