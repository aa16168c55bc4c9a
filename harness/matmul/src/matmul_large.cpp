// The large sizes, checked on the GPU: cuBLAS computes the expected product and the comparison
// runs on the device; only a wrong result is checked again on the host, where the diagnosis is.
#include <memory>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device_compare.hpp"
#include "harness/matmul.hpp"
#include "product_error_bound.hpp"

namespace harness {

namespace {

// What the GPU found about one large case: right (nothing else needed) or the inputs to check it
// again on the host, with how wrong the first run was.
struct DeviceVerdict {
  bool right = false;
  DeviceComparison comparison;
  MatmulProblem inputs;  // only when not right
};

DeviceVerdict check_on_device(const MatmulShape& s, Values values, std::uint64_t seed,
                              const MatmulLauncher& launch, const std::string& call) {
  auto a = DeviceBuffer::matrix("A", s.m, s.k);
  auto b = DeviceBuffer::matrix("B", s.k, s.n);
  auto c = DeviceBuffer::matrix("C", s.m, s.n);
  if (values == Values::integers) {
    a.fill_random_integers(seed);
    b.fill_random_integers(seed ^ 0x5bd1e995ULL);
  } else {
    a.fill_random(seed);
    b.fill_random(seed ^ 0x5bd1e995ULL);
  }
  const auto a_before = device_copy(a, "A as given");
  const auto b_before = device_copy(b, "B as given");
  DeviceBuffer expected("expected C", c.size(), 0);
  cublas_matmul(a.data(), b.data(), expected.data(), s);
  // Reals: the bound is 3 gamma_k (|A| |B|)_ij, as expected_product gives it.
  std::unique_ptr<DeviceBuffer> magnitude;
  if (values == Values::reals) {
    DeviceBuffer abs_a("|A|", a.size(), 0);
    DeviceBuffer abs_b("|B|", b.size(), 0);
    absolute_values_on_device(a.data(), abs_a.data(), a.size());
    absolute_values_on_device(b.data(), abs_b.data(), b.size());
    magnitude = std::make_unique<DeviceBuffer>("|A| |B|", c.size(), 0);
    cublas_matmul(abs_a.data(), abs_b.data(), magnitude->data(), s);
    CUDA_CHECK(cudaDeviceSynchronize());  // before abs_a and abs_b are freed
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  launch(a.data(), b.data(), c.data());
  synchronize_after(call);

  DeviceVerdict verdict;
  verdict.comparison =
      compare_on_device(expected.data(), c.data(), magnitude ? magnitude->data() : nullptr,
                        3.0 * gamma(s.k), c.size());
  verdict.right = verdict.comparison.mismatches == 0 && c.check_guards().empty() &&
                  a.check_guards().empty() && b.check_guards().empty() &&
                  count_differences_on_device(a_before->data(), a.data(), a.size()) == 0 &&
                  count_differences_on_device(b_before->data(), b.data(), b.size()) == 0;
  if (!verdict.right) {
    verdict.inputs.shape = s;
    verdict.inputs.values = values;
    verdict.inputs.name = s.label();
    verdict.inputs.a = a_before->download();
    verdict.inputs.b = b_before->download();
  }
  return verdict;
}

}  // namespace

void check_large_matmul(CaseResult& result, const MatmulShape& shape, Values values,
                        std::uint64_t seed, const MatmulLauncher& launch, const std::string& call) {
  if (shape.m == shape.k && shape.k == shape.n) result.width = shape.m;
  auto verdict = check_on_device(shape, values, seed, launch, call);
  const auto& found = verdict.comparison;
  if (verdict.right) {
    result.total = static_cast<long long>(shape.m) * shape.n;
    result.max_abs_error = found.max_abs_error;
    result.tolerance = found.max_tolerance;
    if (values == Values::integers) result.output_digest = found.digest;
    return;
  }
  // The device buffers are freed; the full check on the host, on the same inputs, runs the kernel
  // again and finds the positions, the error map and the diagnosis.
  check_matmul(result, verdict.inputs, launch, call);
  if (result.verdict == Verdict::pass) {
    // Right the second time: the first run still counts.
    fail_case(result, fmt::format("{} of {} elements were wrong in the first run (or it wrote "
                                  "outside its matrices), though a second run was right: a race "
                                  "between threads, or a read of memory never written?",
                                  found.mismatches, static_cast<long long>(shape.m) * shape.n));
  }
}

}  // namespace harness
