#include "harness/device_compare.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "harness/compare.hpp"
#include "harness/cuda_check.hpp"
#include "harness/digest_term.hpp"

namespace harness {
namespace {

constexpr int kBlocks = 1024;
constexpr int kThreads = 256;

// A float's bits, in host and device code (and under the CPU emulation).
LABS_HOST_DEVICE inline std::uint32_t bits_of(float value) {
  std::uint32_t bits = 0;
  memcpy(&bits, &value, sizeof bits);
  return bits;
}

struct Totals {
  unsigned long long mismatches;
  unsigned long long first_mismatch;  // the lowest wrong index; ~0 when none
  unsigned long long digest;          // sums modulo 2^64, as the host's output_digest
  unsigned int max_error_bits;        // non-negative floats order like their bits
  unsigned int max_tolerance_bits;
};

__global__ void compare_kernel(const float* expected, const float* got, const float* tolerance,
                               double scale, std::size_t count, Totals* totals) {
  unsigned long long mismatches = 0;
  unsigned long long first = ~0ull;
  unsigned long long digest = 0;
  float max_error = 0;
  float max_tolerance = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const float have = got[i];
    digest += digest_term(i, bits_of(have));
    if (!std::isfinite(have)) {
      ++mismatches;
      first = first < i ? first : i;
      continue;
    }
    const double error = fabs(static_cast<double>(have) - expected[i]);
    max_error = fmaxf(max_error, static_cast<float>(error));
    bool wrong = false;
    if (tolerance) {
      const float bound = static_cast<float>(scale * tolerance[i]);
      max_tolerance = fmaxf(max_tolerance, bound);
      wrong = !(error <= bound);
    } else {
      wrong = have != expected[i];
    }
    if (wrong) {
      ++mismatches;
      first = first < i ? first : i;
    }
  }
  if (mismatches) {
    atomicAdd(&totals->mismatches, mismatches);
    atomicMin(&totals->first_mismatch, first);
  }
  atomicAdd(&totals->digest, digest);
  atomicMax(&totals->max_error_bits, bits_of(max_error));
  atomicMax(&totals->max_tolerance_bits, bits_of(max_tolerance));
}

template <class T>
__global__ void count_differences_kernel(const T* a, const T* b, std::size_t count,
                                         unsigned long long* differences) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    if (!(a[i] == b[i])) ++local;  // NaN != NaN
  }
  if (local) atomicAdd(differences, local);
}

__global__ void digest_kernel(const float* values, std::size_t count, unsigned long long* sum) {
  unsigned long long local = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    local += digest_term(i, bits_of(values[i]));
  }
  atomicAdd(sum, local);
}

__global__ void absolute_kernel(const float* in, float* out, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    out[i] = fabsf(in[i]);
  }
}

float from_bits(unsigned int bits) {
  float value = 0;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Device memory for the totals, freed on every path.
template <typename T>
class DeviceScalar {
 public:
  DeviceScalar() {
    CUDA_CHECK(cudaMalloc(&pointer_, sizeof(T)));
    CUDA_CHECK(cudaMemset(pointer_, 0, sizeof(T)));
  }
  ~DeviceScalar() { cudaFree(pointer_); }
  DeviceScalar(const DeviceScalar&) = delete;
  DeviceScalar& operator=(const DeviceScalar&) = delete;
  T* get() { return pointer_; }
  T read() const {
    T value{};
    CUDA_CHECK(cudaMemcpy(&value, pointer_, sizeof(T), cudaMemcpyDeviceToHost));
    return value;
  }

 private:
  T* pointer_ = nullptr;
};

}  // namespace

DeviceComparison compare_on_device(const float* expected, const float* got, const float* tolerance,
                                   double scale, std::size_t count) {
  DeviceScalar<Totals> totals;
  CUDA_CHECK(cudaMemset(&totals.get()->first_mismatch, 0xff, sizeof(unsigned long long)));
  compare_kernel<<<kBlocks, kThreads>>>(expected, got, tolerance, scale, count, totals.get());
  CUDA_CHECK(cudaGetLastError());
  const Totals read = totals.read();
  DeviceComparison comparison;
  comparison.mismatches = static_cast<long long>(read.mismatches);
  comparison.first_mismatch = read.mismatches ? static_cast<long long>(read.first_mismatch) : -1;
  comparison.max_abs_error = from_bits(read.max_error_bits);
  comparison.max_tolerance = tolerance ? from_bits(read.max_tolerance_bits) : 0.0;
  comparison.digest = format_digest(read.digest);
  return comparison;
}

float element_on_device(const float* values, long long index) {
  float value = 0;
  CUDA_CHECK(cudaMemcpy(&value, values + index, sizeof value, cudaMemcpyDeviceToHost));
  return value;
}

long long count_differences_on_device(const float* a, const float* b, std::size_t count) {
  DeviceScalar<unsigned long long> differences;
  count_differences_kernel<<<kBlocks, kThreads>>>(a, b, count, differences.get());
  CUDA_CHECK(cudaGetLastError());
  return static_cast<long long>(differences.read());
}

long long count_differences_on_device(const std::int32_t* a, const std::int32_t* b,
                                      std::size_t count) {
  DeviceScalar<unsigned long long> differences;
  count_differences_kernel<<<kBlocks, kThreads>>>(a, b, count, differences.get());
  CUDA_CHECK(cudaGetLastError());
  return static_cast<long long>(differences.read());
}

std::string output_digest_on_device(const float* values, std::size_t count) {
  DeviceScalar<unsigned long long> sum;
  digest_kernel<<<kBlocks, kThreads>>>(values, count, sum.get());
  CUDA_CHECK(cudaGetLastError());
  return format_digest(sum.read());
}

void absolute_values_on_device(const float* in, float* out, std::size_t count) {
  absolute_kernel<<<kBlocks, kThreads>>>(in, out, count);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace harness
