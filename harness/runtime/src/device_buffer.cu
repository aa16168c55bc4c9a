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

void DeviceBuffer::fill_random_sparse_units(std::uint64_t seed) {
  fill_random_sparse_units_kernel<<<1024, 256>>>(payload_, count_, seed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceBuffer::fill_random_integers(std::uint64_t seed) {
  fill_random_integers_kernel<<<1024, 256>>>(payload_, count_, seed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

void DeviceBuffer::fill_random(std::uint64_t seed) {
  fill_random_kernel<<<1024, 256>>>(payload_, count_, seed);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

DeviceBuffer::DeviceBuffer(std::string name, std::size_t count, std::size_t guard)
    : DeviceBuffer(std::move(name), count, guard, next_guard_byte()) {}

DeviceBuffer::DeviceBuffer(std::string name, std::size_t count, std::size_t guard, int guard_byte)
    : name_(std::move(name)), count_(count), guard_(guard), guard_byte_(guard_byte) {
  const std::size_t bytes = (count_ + 2 * guard_) * sizeof(float);
  CUDA_CHECK(cudaMalloc(&base_, bytes));
  payload_ = base_ + guard_;
  CUDA_CHECK(cudaMemset(base_, guard_byte_, bytes));
  // The student's launcher may be given this buffer (its shadow in the student's context).
  student::register_buffer(base_, bytes, name_, guard_ * sizeof(float), count_ * sizeof(float));
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
                                                       long long cols) {
  return std::make_unique<DeviceBuffer>(std::move(name), static_cast<std::size_t>(rows * cols),
                                        matrix_guard_in_this_run(cols));
}

std::size_t DeviceBuffer::matrix_guard(long long cols) {
  return std::max<std::size_t>(4096, static_cast<std::size_t>(64 * (cols + 1)));
}

void DeviceBuffer::upload(const std::vector<float>& values) {
  if (values.size() != count_) {
    throw std::invalid_argument(
        fmt::format("{}: upload of {} values into {} elements", name_, values.size(), count_));
  }
  CUDA_CHECK(cudaMemcpy(payload_, values.data(), count_ * sizeof(float), cudaMemcpyHostToDevice));
}

std::vector<float> DeviceBuffer::download() const {
  std::vector<float> values(count_);
  CUDA_CHECK(cudaMemcpy(values.data(), payload_, count_ * sizeof(float), cudaMemcpyDeviceToHost));
  return values;
}

void DeviceBuffer::poison() {
  CUDA_CHECK(cudaMemset(payload_, kPoisonByte, count_ * sizeof(float)));
}

void DeviceBuffer::refill_guards() {
  if (guard_ == 0) return;
  CUDA_CHECK(cudaMemset(base_, guard_byte_, guard_ * sizeof(float)));
  CUDA_CHECK(cudaMemset(payload_ + count_, guard_byte_, guard_ * sizeof(float)));
}

std::vector<OutOfBoundsWrite> DeviceBuffer::check_guards(std::size_t max_listed) const {
  std::vector<OutOfBoundsWrite> writes;
  std::vector<float> guard(guard_);
  std::uint32_t pattern;
  std::memset(&pattern, guard_byte_, sizeof pattern);
  const auto scan = [&](const float* start, long long first_offset) {
    CUDA_CHECK(cudaMemcpy(guard.data(), start, guard_ * sizeof(float), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < guard_ && writes.size() < max_listed; ++i) {
      std::uint32_t bits;
      std::memcpy(&bits, &guard[i], sizeof bits);
      if (bits != pattern) {
        writes.push_back({name_, first_offset + static_cast<long long>(i), format_value(guard[i])});
      }
    }
  };
  scan(base_, -static_cast<long long>(guard_));
  scan(payload_ + count_, static_cast<long long>(count_));
  return writes;
}

std::unique_ptr<DeviceBuffer> device_copy(const DeviceBuffer& from, std::string name) {
  auto copy = std::make_unique<DeviceBuffer>(std::move(name), from.size(), 0);
  CUDA_CHECK(
      cudaMemcpy(copy->data(), from.data(), from.size() * sizeof(float), cudaMemcpyDeviceToDevice));
  return copy;
}

}  // namespace harness
