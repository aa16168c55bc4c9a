// Lab 10's checks (../spec.json: points, sizes, thresholds); any order of additions must pass.
#include <cmath>
#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/random.hpp"
#include "harness/student_call.hpp"
#include "lab10.h"
#include "lab10_bonus.h"

// The bonus is optional: bonus.cu may be absent from a submission. The lab program always has
// the function (its proxy, cmake/LabContract.cmake); whether the submission defines it is the
// launcher's answer, LAB_STUDENT_DEFINES (harness/student_call.hpp).
using namespace harness;  // NOLINT: a lab's test file is made of the harness's checks
// ---- the reference: the sum in double, and how far any order of float additions may be ----
// What the rule needs of the input: its sum, the sums of its positive and negative parts, and
// whether every element is a whole number. The CPU adds them up for the correctness sizes, the
// GPU for the speed checks' 2^28 elements (every timed call has new inputs and is verified).
struct SumParts {
  double sum = 0, positives = 0, negatives = 0;
  bool integers = true;
};
static Expected expected_sum(const SumParts& parts, double count) {
  // Whole numbers whose positive and whose negative parts each add up to 2^24 or less: every
  // partial sum, in any order, is a whole number that float32 holds exactly. Compare exactly.
  if (parts.integers && std::fmax(parts.positives, parts.negatives) <= 0x1p24) {
    return {{static_cast<float>(parts.sum)}, {}};
  }
  // Any order of the k additions is within gamma_k * sum |x| = k u / (1 - k u) * sum |x| (Higham,
  // Accuracy and Stability of Numerical Algorithms, 4.2), where k u < 1/2 (every correctness
  // size); past that (the speed checks' 2^28) 2^-12 of sum |x|. Plus half an ulp of the sum, for
  // rounding the expected value to float.
  const double u = 0x1p-24, k = count - 1;
  const double magnitude = parts.positives + parts.negatives;
  const double bound = k * u < 0.5 ? k * u / (1 - k * u) * magnitude : 0x1p-12 * magnitude;
  const auto tolerance = static_cast<float>(bound + u * std::fabs(parts.sum));
  return {{static_cast<float>(parts.sum)}, {std::nextafter(tolerance, INFINITY)}};
}
static Expected sum_of(const CaseData& data) {
  SumParts parts;
  for (const float x : data.inputs[0].floats()) {
    parts.sum += x;  // exact for whole numbers; for reals its rounding is far below the bound
    (x > 0 ? parts.positives : parts.negatives) += std::fabs(x);
    parts.integers = parts.integers && x == std::nearbyint(x);
  }
  return expected_sum(parts, static_cast<double>(data.inputs[0].size()));
}
// Each block adds its share in double (exact for whole numbers: far below 2^53), then one atomic
// per block and part. parts: sum, positives, negatives, and 1.0 where an element is not whole.
__global__ void sum_parts_kernel(const float* in, long long n, double* parts) {
  __shared__ double shared[4][256];
  double sum = 0, positives = 0, negatives = 0, fractional = 0;
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < n; i += 256LL * gridDim.x) {
    const float x = in[i];
    sum += x;
    (x > 0 ? positives : negatives) += fabsf(x);
    if (x != nearbyintf(x)) fractional = 1;
  }
  shared[0][threadIdx.x] = sum;
  shared[1][threadIdx.x] = positives;
  shared[2][threadIdx.x] = negatives;
  shared[3][threadIdx.x] = fractional;
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      for (int p = 0; p < 3; ++p) shared[p][threadIdx.x] += shared[p][threadIdx.x + stride];
      shared[3][threadIdx.x] = fmax(shared[3][threadIdx.x], shared[3][threadIdx.x + stride]);
    }
    __syncthreads();
  }
  if (threadIdx.x < 3) atomicAdd(&parts[threadIdx.x], shared[threadIdx.x][0]);
  if (threadIdx.x == 3 && shared[3][0] > 0) parts[3] = 1;
}
static bool sum_on_device(const DeviceArgs& a, float* expected, float* tolerance) {
  double* parts = nullptr;
  CUDA_CHECK(cudaMalloc(&parts, 4 * sizeof(double)));
  CUDA_CHECK(cudaMemset(parts, 0, 4 * sizeof(double)));
  sum_parts_kernel<<<1024, 256>>>(a.in(0), a.n(), parts);
  CUDA_CHECK(cudaGetLastError());
  double host[4] = {};
  CUDA_CHECK(cudaMemcpy(host, parts, sizeof host, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(parts));
  const auto expected_value = expected_sum({host[0], host[1], host[2], host[3] == 0}, a.n());
  CUDA_CHECK(
      cudaMemcpy(expected, expected_value.values.data(), sizeof(float), cudaMemcpyHostToDevice));
  if (expected_value.tolerance.empty()) return false;
  CUDA_CHECK(cudaMemcpy(tolerance, expected_value.tolerance.data(), sizeof(float),
                        cudaMemcpyHostToDevice));
  return true;
}
static BufferLab sum_lab(void (*reduce)(const float*, float*, int), const char* name) {
  return BufferLab(name, std::string(name) + "(in, out, {n})")
      .input("in", n_elements, Fill::integers)
      .output("out", one_element)
      .call([reduce](const DeviceArgs& a) { reduce(a.in(0), a.output, a.n()); })
      .reference(sum_of)
      .device_reference(sum_on_device);
}
static const auto lab = sum_lab(reduce_sum, "reduce_sum");
static const auto fast = sum_lab(reduce_sum_fast, "reduce_sum_fast");
static bool tried(Check& c) {
  return bonus_attempted(c, fast, LAB_STUDENT_DEFINES(reduce_sum_fast));
}
LAB_CHECK(ReduceSum, Integers) { check_correctness(check, lab); }
LAB_CHECK(ReduceSum, Reals) { check_correctness(check, lab.with_fill(Fill::reals)); }
// Past 2^24 elements: +1 and -1 (random_integer_matrix's zeros become +1), exact in any order.
LAB_CHECK(ReduceSum, Large) {
  for (const auto& size : case_sizes(check.spec(), lab)) {
    const auto seed = check.seed_for(lab.case_label(size));
    const CaseData data{size, {random_integer_matrix(size.n(), 1, seed, -1, 1)}};
    check_case(check, lab, lab.case_label(size), data, sum_of(data));
  }
}
LAB_CHECK(ReduceSum, SharedMemory) { check_uses_shared_memory(check, lab, {}); }
// Timed on sparse units (+1 or -1 at one element in 64): at 2^28 elements the sum is exact in any
// order, so every timed call's sum is compared exactly; integers' bound there (2^-12 of sum |x|)
// would let a stale or half-read sum through.
LAB_CHECK(ReduceSum, Speed) { check_speed(check, lab.with_fill(Fill::sparse_units)); }
LAB_CHECK(ReduceSumFast, Integers) {
  if (tried(check)) check_correctness(check, fast);
}
LAB_CHECK(ReduceSumFast, Speed) {
  if (tried(check)) check_speed(check, fast.with_fill(Fill::sparse_units));
}
