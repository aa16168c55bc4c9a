#include "harness/device_buffer.hpp"
#include "student/buffer_registry.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/cuda_check.hpp"

namespace harness {
namespace {

// memset byte patterns: 0xFF gives a NaN in every float. Guards get 0xA1A1A1A1, 0xA2A2A2A2, ...:
// values no correct kernel writes by chance, and different for each buffer, so that a copy that
// runs past the end of `in` into the end of `out` changes out's guard instead of copying the
// same pattern over it.
constexpr int kPoisonByte = 0xFF;

int next_guard_byte() {
  static std::atomic<int> counter{0};
  return 0xA1 + counter++ % 14;
}

// SplitMix64 of the index: a different, reproducible value per element.
__global__ void fill_random_kernel(float* values, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    const float unit = static_cast<float>(z >> 40) / static_cast<float>(1 << 24);  // [0, 1)
    values[i] = unit * 2.0f - 1.0f == 0.0f ? 0.5f : unit * 2.0f - 1.0f;
  }
}

__device__ std::uint64_t mix(std::uint64_t seed, std::size_t i) {
  std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

__global__ void fill_random_integers_kernel(float* values, std::size_t count, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int value = static_cast<int>(mix(seed, i) % 8) - 4;  // -4..3, then 0 becomes 4
    values[i] = static_cast<float>(value == 0 ? 4 : value);
  }
}

// +1 or -1 at one element in kSparseOneIn, 0 elsewhere.
__global__ void fill_random_sparse_units_kernel(float* values, std::size_t count,
                                                std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t z = mix(seed, i);
    values[i] = z % DeviceBuffer::kSparseOneIn != 0 ? 0.0f : ((z >> 32) & 1 ? 1.0f : -1.0f);
  }
}

}  // namespace

void DeviceBuffer::throw_wrong_type(const char* asked) const {
  throw std::logic_error(
      fmt::format("the device buffer {} holds {}s, not {}s", name_, element_word(element_), asked));
}

void DeviceBuffer::require_floats(const char* what) const {
  if (element_ == Element::float32) return;
  throw std::logic_error(
      fmt::format("{} of the device buffer {}: it holds {}s, which its lab's case generator draws",
                  what, name_, element_word(element_)));
}

void DeviceBuffer::fill_random_sparse_units(std::uint64_t seed) {
  require_floats("fill_random_sparse_units");
  fill_random_sparse_units_kernel<<<1024, 256>>>(data(), count_, seed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceBuffer::fill_random_integers(std::uint64_t seed) {
  require_floats("fill_random_integers");
  fill_random_integers_kernel<<<1024, 256>>>(data(), count_, seed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceBuffer::fill_random(std::uint64_t seed) {
  require_floats("fill_random");
  fill_random_kernel<<<1024, 256>>>(data(), count_, seed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

DeviceBuffer::DeviceBuffer(std::string name, std::size_t count, std::size_t guard)
    : DeviceBuffer(std::move(name), Element::float32, count, guard, next_guard_byte()) {}

DeviceBuffer::DeviceBuffer(std::string name, std::size_t count, std::size_t guard, int guard_byte)
    : DeviceBuffer(std::move(name), Element::float32, count, guard, guard_byte) {}

DeviceBuffer::DeviceBuffer(std::string name, Element element, std::size_t count, std::size_t guard)
    : DeviceBuffer(std::move(name), element, count, guard, next_guard_byte()) {}

DeviceBuffer::DeviceBuffer(std::string name, Element element, std::size_t count, std::size_t guard,
                           int guard_byte)
    : name_(std::move(name)),
      element_(element),
      count_(count),
      guard_(guard),
      guard_byte_(guard_byte) {
  const std::size_t element_size = element_bytes(element_);
  const std::size_t bytes = (count_ + 2 * guard_) * element_size;
  void* allocation = nullptr;
  CUDA_CHECK(cudaMalloc(&allocation, bytes));
  base_ = static_cast<char*>(allocation);
  payload_ = base_ + guard_ * element_size;
  CUDA_CHECK(cudaMemset(base_, guard_byte_, bytes));
  // The student's launcher may be given this buffer (its shadow in the student's context).
  student::register_buffer(base_, bytes, name_, guard_ * element_size, count_ * element_size,
                           element_word(element_));
  poison();
}

DeviceBuffer::~DeviceBuffer() {
  if (base_) student::forget_buffer(base_);
  if (base_) cudaFree(base_);  // no throw from a destructor; a sticky error is reported elsewhere
}

namespace {

// Under compute-sanitizer (LAB_SANITIZER set by the sanitizer tests) there are no guard zones:
// a write past the end must land outside the allocation, where memcheck reports it.
std::size_t matrix_guard_in_this_run(long long cols) {
  const char* sanitizer = std::getenv("LAB_SANITIZER");
  return sanitizer && *sanitizer ? 0 : DeviceBuffer::matrix_guard(cols);
}

}  // namespace

DeviceBuffer DeviceBuffer::matrix(std::string name, long long rows, long long cols) {
  return DeviceBuffer(std::move(name), static_cast<std::size_t>(rows * cols),
                      matrix_guard_in_this_run(cols));
}

std::unique_ptr<DeviceBuffer> DeviceBuffer::new_matrix(std::string name, long long rows,
                                                       long long cols, Element element) {
  return std::make_unique<DeviceBuffer>(std::move(name), element,
                                        static_cast<std::size_t>(rows * cols),
                                        matrix_guard_in_this_run(cols));
}

std::size_t DeviceBuffer::matrix_guard(long long cols) {
  return std::max<std::size_t>(4096, static_cast<std::size_t>(64 * (cols + 1)));
}

void DeviceBuffer::upload(const HostView& values) {
  if (values.element() != element_ || values.size() != count_) {
    throw std::invalid_argument(fmt::format("{}: upload of {} {}s into {} {}s", name_,
                                            values.size(), element_word(values.element()), count_,
                                            element_word(element_)));
  }
  CUDA_CHECK(cudaMemcpy(payload_, values.data(), bytes(), cudaMemcpyHostToDevice));
}

std::vector<float> DeviceBuffer::download() const {
  std::vector<float> values(count_);
  CUDA_CHECK(cudaMemcpy(values.data(), as<float>(), bytes(), cudaMemcpyDeviceToHost));
  return values;
}

std::vector<std::int32_t> DeviceBuffer::download_ints() const {
  std::vector<std::int32_t> values(count_);
  CUDA_CHECK(cudaMemcpy(values.data(), as<std::int32_t>(), bytes(), cudaMemcpyDeviceToHost));
  return values;
}

HostArray DeviceBuffer::download_values() const {
  if (element_ == Element::int32) return download_ints();
  return download();
}

void DeviceBuffer::poison() { CUDA_CHECK(cudaMemset(payload_, kPoisonByte, bytes())); }

void DeviceBuffer::refill_guards() {
  if (guard_ == 0) return;
  const std::size_t guard_bytes = guard_ * element_bytes(element_);
  CUDA_CHECK(cudaMemset(base_, guard_byte_, guard_bytes));
  CUDA_CHECK(cudaMemset(payload_ + bytes(), guard_byte_, guard_bytes));
}

std::vector<OutOfBoundsWrite> DeviceBuffer::check_guards(std::size_t max_listed) const {
  // Every element type is 4 bytes: a guard element is one 32-bit word of the guard byte.
  static_assert(sizeof(float) == sizeof(std::uint32_t));
  std::vector<std::uint32_t> guard(guard_);
  std::vector<OutOfBoundsWrite> writes;
  std::uint32_t pattern;
  std::memset(&pattern, guard_byte_, sizeof pattern);
  const auto value_text = [this](std::uint32_t bits) {
    if (element_ == Element::int32) return std::to_string(static_cast<std::int32_t>(bits));
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return format_value(value);
  };
  const auto scan = [&](const char* start, long long first_offset) {
    CUDA_CHECK(
        cudaMemcpy(guard.data(), start, guard_ * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < guard_ && writes.size() < max_listed; ++i) {
      if (guard[i] != pattern) {
        writes.push_back({name_, first_offset + static_cast<long long>(i), value_text(guard[i])});
      }
    }
  };
  scan(base_, -static_cast<long long>(guard_));
  scan(payload_ + bytes(), static_cast<long long>(count_));
  return writes;
}

std::unique_ptr<DeviceBuffer> device_copy(const DeviceBuffer& from, std::string name) {
  auto copy = std::make_unique<DeviceBuffer>(std::move(name), from.element(), from.size(), 0);
  CUDA_CHECK(cudaMemcpy(copy->address(), from.address(), from.bytes(), cudaMemcpyDeviceToDevice));
  return copy;
}

}  // namespace harness
