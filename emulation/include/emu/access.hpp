// Bounds checks on the accesses of kernel code, the emulator's counterpart of compute-sanitizer's
// memcheck. The rewriter wraps each subscript of a kernel's pointer parameters, of pointers the
// kernel declares, and of its __shared__ arrays: `A[i]` becomes `::emu::at(A[i], file, line,
// kind)` (`at_shared` for a static __shared__ array, with the array). The check is a few
// comparisons against the regions the launch knows (the lab's buffers, cudaMalloc's allocations,
// the dynamic shared memory the launch gave); an access outside is reported, once per launch with
// a count of the others (control.hpp, take_memory_error), and then made as before: the values are
// what they would be without the check. Pointer arithmetic (`*(A + i)`) is not checked.
// An access inside shared memory also goes to the race check (shared_race_check.hpp, the
// counterpart of racecheck): two threads touching it between the same barriers, one writing.
// The evidence engine (emulation/src/evidence.hpp) sees the accesses of a few blocks of each
// launch (`profile`: coalescing, bank conflicts, shared memory read before written) and the
// writes of all of them (elements written by two threads, blocks that wrote nothing); a block it
// does not profile pays one predictable branch a read.
#pragma once

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace emu {

// update: read and written by one expression (`+=`, `++`): a read for the bounds checks, both
// for the race check.
enum class Access : unsigned char { read, write, update };

namespace detail {

// A buffer kernels may use, and the zone around it in which an access is taken to be meant for it.
struct CheckedRegion {
  const char* begin;
  const char* end;
  const char* zone_begin;
  const char* zone_end;
  const char* name;  // "A"; lives as long as the launch
  // Its element type as C++ spells it ("float", "int"): memory errors count in it ("A[2]", "A
  // holds 64 floats"). Memory the kernels' launcher allocated itself is taken to hold floats.
  const char* element;
};

// What the running block checks against: set by the block runner, empty outside kernels.
struct AccessBounds {
  const CheckedRegion* regions = nullptr;
  std::size_t region_count = 0;
  const char* dynamic_begin = nullptr;  // the OS thread's dynamic shared memory buffer
  const char* dynamic_given = nullptr;  // its end as the launch gave it
  const char* dynamic_end = nullptr;    // the buffer's end (the largest launch's)
  bool race_watch = false;              // shared accesses go to note_shared_access
  bool profile = false;                 // the evidence engine profiles this block's accesses
  bool writes_watched = false;          // plain global writes go to note_global_write
  bool wrote = false;  // the running thread wrote global memory (the block runner clears it)
};
inline thread_local AccessBounds access_bounds;

struct AccessSite {
  const char* file;
  int line;
  Access access;
};

// Cold: records the first bad access of the launch and counts the rest. `element` words the
// shared array's elements ("float"; null: counted in bytes).
void report_global_access(const CheckedRegion& region, const void* address, std::size_t bytes,
                          const AccessSite& site);
void report_dynamic_shared_access(const void* address, std::size_t bytes, const AccessSite& site);
void report_shared_access(const void* array, std::size_t array_bytes, const char* name,
                          const char* element, const void* address, std::size_t bytes,
                          const AccessSite& site);

// The evidence engine's side of an access inside buffer `region` (evidence.hpp): every plain
// write while writes are watched, every access of a profiled block.
void note_global_write(std::size_t region, const char* address, std::size_t bytes,
                       const AccessSite& site);
void note_global_profile(std::size_t region, const char* address, std::size_t bytes,
                         const AccessSite& site);

// The shape of a static __shared__ array, for the race check's words ("Nds[3][5]").
struct SharedArrayShape {
  unsigned rank;
  std::size_t extents[4];  // the first `rank` (at most 4; deeper arrays are named by offset)
  std::size_t element_bytes;
  bool floats;
};
template <class Array>
constexpr SharedArrayShape shape_of() {
  SharedArrayShape shape{static_cast<unsigned>(std::rank_v<Array>),
                         {0, 0, 0, 0},
                         sizeof(std::remove_all_extents_t<Array>),
                         std::is_same_v<std::remove_cv_t<std::remove_all_extents_t<Array>>, float>};
  if constexpr (std::rank_v < Array >> 0) shape.extents[0] = std::extent_v<Array, 0>;
  if constexpr (std::rank_v < Array >> 1) shape.extents[1] = std::extent_v<Array, 1>;
  if constexpr (std::rank_v < Array >> 2) shape.extents[2] = std::extent_v<Array, 2>;
  if constexpr (std::rank_v < Array >> 3) shape.extents[3] = std::extent_v<Array, 3>;
  if (shape.rank > 4) shape.rank = 0;
  return shape;
}
template <class Array>
inline constexpr SharedArrayShape shape_v = shape_of<Array>();

// The race check's and the evidence engine's side of an access inside shared memory
// (shared_race_check.cpp): `array` is a static array's first byte (with its shape and name) or
// the dynamic shared memory's (no shape).
void note_shared_access(const char* array, std::size_t array_bytes, const SharedArrayShape* shape,
                        const char* name, const char* address, std::size_t bytes,
                        const AccessSite& site);

// The element's first byte, whatever its qualifiers (a volatile shared array's, say).
template <class T>
inline const char* first_byte(T& element) {
  return static_cast<const char*>(
      const_cast<const void*>(static_cast<const volatile void*>(std::addressof(element))));
}

template <class T>
constexpr bool checkable_v =
    std::is_lvalue_reference_v<T> && !std::is_array_v<std::remove_reference_t<T>> &&
    !std::is_function_v<std::remove_reference_t<T>>;

}  // namespace detail

// A subscript of global memory or of extern __shared__ memory, checked by its address.
template <class T>
inline T&& at(T&& element, const char* file, int line, Access access) {
  if constexpr (detail::checkable_v<T&&>) {
    auto& bounds = detail::access_bounds;
    const char* p = detail::first_byte(element);
    constexpr std::size_t size = sizeof(std::remove_reference_t<T>);
    if (p >= bounds.dynamic_begin && p < bounds.dynamic_end) {
      if (p + size > bounds.dynamic_given) [[unlikely]] {
        detail::report_dynamic_shared_access(p, size, {file, line, access});
      } else if (bounds.race_watch) {
        detail::note_shared_access(
            bounds.dynamic_begin,
            static_cast<std::size_t>(bounds.dynamic_given - bounds.dynamic_begin), nullptr, nullptr,
            p, size, {file, line, access});
      }
    } else {
      for (std::size_t i = 0; i < bounds.region_count; ++i) {
        const auto& region = bounds.regions[i];
        if (p < region.zone_begin || p >= region.zone_end) continue;
        if (access != Access::read) bounds.wrote = true;
        if (p < region.begin || p + size > region.end) [[unlikely]] {
          detail::report_global_access(region, p, size, {file, line, access});
        } else {
          if (access == Access::write && bounds.writes_watched) {
            detail::note_global_write(i, p, size, {file, line, access});
          }
          if (bounds.profile) [[unlikely]] {
            detail::note_global_profile(i, p, size, {file, line, access});
          }
        }
        break;
      }
    }
  }
  return std::forward<T>(element);
}

// A subscript of a static __shared__ array: inside the array, whatever its shape.
template <class T, class Array>
inline T&& at_shared(T&& element, const Array& array, const char* name, const char* file, int line,
                     Access access) {
  if constexpr (detail::checkable_v<T&&>) {
    const char* p = detail::first_byte(element);
    const char* begin = detail::first_byte(array);
    constexpr std::size_t size = sizeof(std::remove_reference_t<T>);
    if (!detail::access_bounds.dynamic_end) return std::forward<T>(element);  // not in a kernel
    if (p < begin || p + size > begin + sizeof(Array)) [[unlikely]] {
      detail::report_shared_access(begin, sizeof(Array), name,
                                   std::is_same_v<std::remove_cvref_t<T>, float> ? "float"
                                   : std::is_same_v<std::remove_cvref_t<T>, int> ? "int"
                                                                                 : nullptr,
                                   p, size, {file, line, access});
    } else if (detail::access_bounds.race_watch) {
      detail::note_shared_access(begin, sizeof(Array), &detail::shape_v<Array>, name, p, size,
                                 {file, line, access});
    }
  }
  return std::forward<T>(element);
}

}  // namespace emu
