// The lab's buffers in the student's context: a shadow per buffer, copied in before a call and out
// after it (a timed call too: the trusted side draws new inputs and poisons the output between
// timed calls, in its own buffers), and the launcher's fake addresses turned into real ones.
#include "student_runtime.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "buffer_registry.hpp"
#include "driver.hpp"
#include "harness/sanitizer.hpp"
#include "launcher/protocol.hpp"

namespace harness::student {
namespace protocol = launcher_protocol;
namespace {

constexpr std::size_t kMaxSpareShadowBytes = std::size_t{1} << 30;

}  // namespace

CUdeviceptr Runtime::shadow(std::uint64_t region) {
  const auto it = shadows_.find(region);
  if (it != shadows_.end()) return it->second.address;
  const auto* buffer = buffer_in_region(region);
  if (!buffer) return 0;
  Shadow s;
  s.bytes = buffer->bytes;
  if (const auto spare = spare_shadows_.find(s.bytes); spare != spare_shadows_.end()) {
    s.address = spare->second;
    spare_bytes_ -= s.bytes;
    spare_shadows_.erase(spare);
  } else {
    ContextScope scope(context_);
    check_driver(DRIVER(cuMemAlloc)(&s.address, std::max<std::size_t>(s.bytes, 1)),
                 "allocating a buffer in the student's context");
  }
  shadows_[region] = s;
  note_device_buffer(buffer->name, s.address, s.bytes, buffer->element);
  return s.address;
}

void Runtime::copy_in(std::uint64_t region) {
  const auto* buffer = buffer_in_region(region);
  if (!buffer) return;
  const CUdeviceptr target = shadow(region);
  CUcontext own = nullptr;
  DRIVER(cuCtxGetCurrent)(&own);
  check_driver(DRIVER(cuMemcpyPeer)(target, context_, buffer->base, own, buffer->bytes),
               "copying a buffer into the student's context");
}

void Runtime::copy_out(std::uint64_t region) {
  const auto* buffer = buffer_in_region(region);
  const auto it = shadows_.find(region);
  if (!buffer || it == shadows_.end()) return;
  CUcontext own = nullptr;
  DRIVER(cuCtxGetCurrent)(&own);
  check_driver(DRIVER(cuMemcpyPeer)(buffer->base, own, it->second.address, context_, buffer->bytes),
               "copying a buffer out of the student's context");
  check_driver(DRIVER(cuCtxSynchronize)(), "copying a buffer out of the student's context");
}

// Each timed call was copied in and out like any other (Runtime::call), so nothing is left to
// do but forget the launches asked for: the next session asks the launcher again.
void Runtime::end_timing_session() { cached_.clear(); }

void Runtime::drop_shadow(std::uint64_t region) {
  const auto it = shadows_.find(region);
  if (it == shadows_.end()) return;
  const Shadow s = it->second;
  shadows_.erase(it);
  if (!context_) return;
  if (spare_bytes_ + s.bytes <= kMaxSpareShadowBytes) {
    spare_shadows_.emplace(s.bytes, s.address);
    spare_bytes_ += s.bytes;
    return;
  }
  DRIVER(cuCtxPushCurrent)(context_);
  DRIVER(cuMemFree)(s.address);
  DRIVER(cuCtxPopCurrent)(nullptr);
}

// A fake address of the launcher as a real one in the student's context, with the bytes left in
// its allocation from there; nothing when it is not a fake address at all.
std::optional<std::pair<CUdeviceptr, std::size_t>> Runtime::translate(std::uint64_t fake) {
  if (!protocol::is_fake(fake)) return std::nullopt;
  const std::uint64_t region = protocol::region_of(fake);
  const std::uint64_t offset = protocol::offset_of(fake);
  std::size_t bytes = 0;
  CUdeviceptr base = 0;
  if (region >= protocol::kFirstLauncherRegion) {
    const auto it = allocations_.find(region);
    if (it == allocations_.end()) return std::make_pair(CUdeviceptr{0}, std::size_t{0});
    base = it->second.address;
    bytes = it->second.bytes;
  } else {
    base = shadow(region);
    if (base == 0) return std::make_pair(CUdeviceptr{0}, std::size_t{0});
    bytes = shadows_.at(region).bytes;
  }
  return std::make_pair(base + offset, offset <= bytes ? bytes - offset : 0);
}

CUdeviceptr Runtime::device_address(std::uint64_t fake, std::size_t bytes, const char* what,
                                    const std::string& call_text) {
  const auto real = translate(fake);
  if (!real || real->first == 0) {
    throw StudentError(cudaErrorInvalidValue,
                       fmt::format("{}: {} uses an address that is not device memory of this call "
                                   "(freed, or never allocated)",
                                   call_text, what));
  }
  if (bytes > real->second) {
    throw StudentError(
        cudaErrorInvalidValue,
        fmt::format("{}: {} of {} bytes goes past the end of its buffer", call_text, what, bytes));
  }
  return real->first;
}

}  // namespace harness::student
