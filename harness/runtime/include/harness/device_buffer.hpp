// A buffer of one element type (harness/element.hpp: float32 unless a lab declares another) in
// device memory with guard zones on both sides: a kernel that writes past either end changes a
// guard, and check_guards() says where. Owns its memory (RAII).
#pragma once

#include <memory>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/contract.hpp"
#include "harness/element.hpp"

namespace harness {

class DeviceBuffer {
 public:
  // `guard` elements before and after the payload.
  DeviceBuffer(std::string name, std::size_t count, std::size_t guard);
  // The same with a chosen guard byte (0xFF: the guards read as NaN, for experiments that ask
  // whether a kernel reads outside its inputs).
  DeviceBuffer(std::string name, std::size_t count, std::size_t guard, int guard_byte);
  // `count` elements of `element`, `guard` elements before and after.
  DeviceBuffer(std::string name, Element element, std::size_t count, std::size_t guard);
  DeviceBuffer(std::string name, Element element, std::size_t count, std::size_t guard,
               int guard_byte);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  // A matrix buffer whose guards cover an overshoot of 64 rows: a grid with extra blocks and no
  // bounds check writes there.
  static DeviceBuffer matrix(std::string name, long long rows, long long cols);
  // The same on the heap, for a number of buffers known at run time (DeviceBuffer does not move).
  static std::unique_ptr<DeviceBuffer> new_matrix(std::string name, long long rows, long long cols,
                                                  Element element = Element::float32);
  // The guard that matrix() gives a buffer with `cols` columns.
  static std::size_t matrix_guard(long long cols);

  // The payload of a float buffer (std::logic_error for another element type).
  float* data() { return as<float>(); }
  const float* data() const { return as<float>(); }
  // The payload as `T`, which must be its element type.
  template <class T>
  T* as() const {
    if (element_of<T>() != element_) throw_wrong_type(element_word(element_of<T>()));
    return reinterpret_cast<T*>(payload_);
  }
  void* address() const { return payload_; }
  Element element() const { return element_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * element_bytes(element_); }
  const std::string& name() const { return name_; }

  // Values of the buffer's own element type and count.
  void upload(const HostView& values);
  std::vector<float> download() const;
  std::vector<std::int32_t> download_ints() const;
  HostArray download_values() const;  // whatever the type
  // The fills below are for float buffers: an index array (int32) is drawn by its lab's case
  // generator, whose values depend on the other inputs, never at random here (std::logic_error).
  // Nonzero values in [-1, 1) drawn from `seed` on the GPU: for sizes too large to fill from
  // the host quickly (speed checks).
  void fill_random(std::uint64_t seed);
  // Nonzero integers in [-4, 4] drawn from `seed` on the GPU: products of these are exact in
  // float32, so every correct kernel gives the same bits (speed checks compare them).
  void fill_random_integers(std::uint64_t seed);
  // +1 or -1 at one element in kSparseOneIn, 0 elsewhere: a sum of up to 2^24 * kSparseOneIn
  // of them stays exact in float32, in any order (harness/buffer_lab.hpp's Fill::sparse_units).
  void fill_random_sparse_units(std::uint64_t seed);
  static constexpr unsigned kSparseOneIn = 64;
  // Every byte 0xFF: every float NaN, so an element the kernel never writes cannot pass (an int
  // reads -1, an index no array has).
  void poison();
  // The guard zones back to their guard byte, as the buffer was made (a kernel may have written
  // there): for a buffer used again, by the experiments that re-run a case on the same buffers.
  void refill_guards();
  // Writes found in the guard zones (at most `max_listed`), offsets relative to element 0.
  std::vector<OutOfBoundsWrite> check_guards(std::size_t max_listed = 10) const;

 private:
  [[noreturn]] void throw_wrong_type(const char* asked) const;
  void require_floats(const char* what) const;

  std::string name_;
  Element element_ = Element::float32;
  std::size_t count_;
  std::size_t guard_;
  int guard_byte_;
  char* base_ = nullptr;  // start of the front guard
  char* payload_ = nullptr;
};

// A device copy of a buffer's payload, without guards (a snapshot no student code touches).
std::unique_ptr<DeviceBuffer> device_copy(const DeviceBuffer& from, std::string name);

}  // namespace harness
