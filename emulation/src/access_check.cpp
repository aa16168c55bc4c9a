// The cold side of the bounds checks (emu/access.hpp): an access outside the memory it was given,
// in the words compute-sanitizer's findings get in the batch's memory pass
// (grader/batch/src/sanitizer_report.cpp), kept until the launcher takes it.
#include <atomic>
#include <mutex>

#include "block_runner.hpp"
#include "emu/access.hpp"
#include "emu/device.hpp"
#include "state.hpp"
#include "words.hpp"

namespace emu::detail {

std::string grouped(std::uint64_t number) {
  const std::string digits = std::to_string(number);
  std::string text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

std::string bytes_text(std::uint64_t bytes) {
  return grouped(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string triple(const uint3& v) {
  return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

namespace {

constexpr std::size_t kElementBytes = 4;  // a float or an int, the lab's element types

// " (A holds 1 float, 4 bytes)", " (col_index holds 9 ints, 36 bytes)", or " (As holds 64 bytes)"
// when its elements are not named (`element` null).
std::string holds(const std::string& name, std::uint64_t bytes, const char* element) {
  if (bytes == 0) return " (" + name + " is empty)";
  if (!element || bytes % kElementBytes != 0) {
    return " (" + name + " holds " + bytes_text(bytes) + ")";
  }
  const std::uint64_t count = bytes / kElementBytes;
  return " (" + name + " holds " + grouped(count) + " " + element + (count == 1 ? ", " : "s, ") +
         bytes_text(bytes) + ")";
}

// "at A + 8 bytes (A[2]), 4 bytes past the end of A": where [address, address + size) lies
// relative to [begin, begin + bytes), which it does not fit in.
std::string place_text(const std::string& name, const char* begin, std::uint64_t bytes,
                       const char* address, std::size_t size, const char* element) {
  const bool before = address < begin;
  const std::uint64_t distance = before ? static_cast<std::uint64_t>(begin - address)
                                        : static_cast<std::uint64_t>(address - begin);
  std::string text = "at " + name + (before ? " - " : " + ") + bytes_text(distance);
  if (element && distance % kElementBytes == 0) {
    text += " (" + name + "[" + (before && distance > 0 ? "-" : "") +
            grouped(distance / kElementBytes) + "])";
  }
  if (before) {
    text += ", " + bytes_text(distance) + " before the start of " + name;
  } else if (distance < bytes) {
    text += ", running " + bytes_text(distance + size - bytes) + " past the end of " + name;
  } else if (distance == bytes) {
    text += ", just past the end of " + name;
  } else {
    text += ", " + bytes_text(distance - bytes) + " past the end of " + name;
  }
  return text;
}

struct Reports {
  std::mutex mutex;
  std::optional<MemoryError> first;
  // (launch << 40 | block) of the first; a report of a later or equal one is only counted. A
  // kernel whose every access is bad stays cheap: one report a block is worded.
  std::atomic<std::uint64_t> first_key{kNoReport};
  std::atomic<long long> count{0};
  static constexpr std::uint64_t kNoReport = ~std::uint64_t{0};
};

Reports& reports() {
  static Reports instance;
  return instance;
}

// The first bad access of the earliest launch, in its lowest block (blocks run in parallel, the
// threads of one block in the schedule's order): the same report at every run. `place` words
// where the access lies, only when it is kept.
template <class Place>
void report(const AccessSite& site, std::size_t size, const Place& place) {
  const BlockRunner* runner = BlockRunner::active();
  if (!runner) return;
  auto& r = reports();
  r.count.fetch_add(1, std::memory_order_relaxed);
  const std::uint64_t key =
      (runner->launch_number() << 40) | (runner->block_linear() & ((std::uint64_t{1} << 40) - 1));
  if (key >= r.first_key.load(std::memory_order_relaxed)) return;
  std::lock_guard lock(r.mutex);
  if (key >= r.first_key.load(std::memory_order_relaxed)) return;
  MemoryError error;
  error.file = short_file(site.file);
  error.line = site.line;
  error.kernel = runner->kernel_name();
  error.thread = threadIdx;
  error.block = blockIdx;
  error.write = site.access == Access::write;
  error.size = size;
  error.place = place();
  r.first = std::move(error);
  r.first_key.store(key, std::memory_order_relaxed);
}

}  // namespace

void report_global_access(const CheckedRegion& region, const void* address, std::size_t bytes,
                          const AccessSite& site) {
  report(site, bytes, [&] {
    const auto length = static_cast<std::uint64_t>(region.end - region.begin);
    return place_text(region.name, region.begin, length, static_cast<const char*>(address), bytes,
                      region.element) +
           holds(region.name, length, region.element);
  });
}

void report_dynamic_shared_access(const void* address, std::size_t bytes, const AccessSite& site) {
  report(site, bytes, [&] {
    const auto& bounds = access_bounds;
    const auto given = static_cast<std::uint64_t>(bounds.dynamic_given - bounds.dynamic_begin);
    const auto offset =
        static_cast<std::uint64_t>(static_cast<const char*>(address) - bounds.dynamic_begin);
    std::string place = "in shared memory at the dynamic shared memory + " + bytes_text(offset);
    if (offset < given) {
      place += ", running " + bytes_text(offset + bytes - given) + " past the end of";
    } else if (offset == given) {
      place += ", just past the end of";
    } else {
      place += ", " + bytes_text(offset - given) + " past the end of";
    }
    return place + " the dynamic shared memory the launch gave (" + bytes_text(given) + ")";
  });
}

void report_shared_access(const void* array, std::size_t array_bytes, const char* name,
                          const char* element, const void* address, std::size_t bytes,
                          const AccessSite& site) {
  report(site, bytes, [&] {
    return "in shared memory " +
           place_text(name, static_cast<const char*>(array), array_bytes,
                      static_cast<const char*>(address), bytes, element) +
           holds(name, array_bytes, element);
  });
}

}  // namespace emu::detail

namespace emu {

std::optional<MemoryError> take_memory_error() {
  auto& r = detail::reports();
  std::lock_guard lock(r.mutex);
  auto first = std::exchange(r.first, std::nullopt);
  const long long count = r.count.exchange(0);
  if (first) first->more = count - 1;
  r.first_key = detail::Reports::kNoReport;
  return first;
}

using detail::triple;

std::string describe(const MemoryError& error) {
  std::string text = error.file + ":" + std::to_string(error.line) + " (" + error.kernel +
                     "), thread " + triple(error.thread) + " of block " + triple(error.block) +
                     ": invalid " + (error.write ? "write" : "read") + " of " +
                     detail::bytes_text(error.size) + " " + error.place;
  if (error.more > 0) text += " and " + detail::grouped(error.more) + " more like it";
  return text;
}

}  // namespace emu
