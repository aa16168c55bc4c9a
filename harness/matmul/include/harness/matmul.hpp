// Matrix products for labs 2 to 7: inputs, known answers from the course material, expected
// results with a per-element tolerance, a case runner, and the speed references (a naive kernel
// and cuBLAS FP32). Shapes: C (m x n) = A (m x k) * B (k x n), all row-major float32.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/diagnose.hpp"
#include "harness/observe.hpp"
#include "harness/speed.hpp"

namespace harness {

// The largest width a square lab's spec may give: 1 GiB a matrix, more than any check needs.
constexpr int kMaxSquareWidth = 16384;

struct MatmulShape {
  int m = 1;
  int k = 1;
  int n = 1;
  std::string label() const;  // "70x64 * 64x200"
  double flops() const { return 2.0 * m * n * static_cast<double>(k); }
  // Width x width times width x width: the labs whose contract takes a single width.
  static MatmulShape square(int width) { return {width, width, width}; }
};
std::vector<MatmulShape> squares(const std::vector<int>& widths);

// Integer values (small, nonzero) make every float32 sum exact, so results compare bit for bit
// whatever the order of the additions; real values compare within a tolerance derived from k.
enum class Values { integers, reals };
const char* values_name(Values values);  // "integers" or "reals", as case labels begin

struct MatmulProblem {
  MatmulShape shape;
  Values values = Values::integers;
  std::vector<float> a;
  std::vector<float> b;
  std::string name;  // for messages
};

MatmulProblem random_problem(const MatmulShape& shape, Values values, std::uint64_t seed);

// Worked examples from the course documents, with their published answers.
struct KnownAnswer {
  MatmulProblem problem;
  std::vector<float> c;     // the answer as printed
  std::string description;  // where it comes from
};
std::vector<KnownAnswer> known_answers();
// Only the square ones (for labs whose contract takes a single width).
std::vector<KnownAnswer> square_known_answers();

// The same example with its rows, inner index and columns renumbered at random from `seed`
// (A' = P A Q, B' = Q^T B R, C' = P C R): still the published product, but a kernel cannot write
// the known answer without computing it. `c` is the answer of `problem`.
void relabel(MatmulProblem& problem, std::vector<float>& c, std::uint64_t seed);

// Expected product and tolerance. For integer inputs the tolerance is empty: exact comparison.
// For reals each element's tolerance is 2 * gamma_k * (|A| |B|)_ij with gamma_k = k u / (1 - k u),
// u = 2^-24: the textbook bound on the error of any order of summation in float32 (doubled to
// cover the reference's own rounding). Small products are computed in double on the CPU; large
// ones with cuBLAS FP32 on the GPU (pedantic math: no TF32).
struct ExpectedProduct {
  std::vector<float> c;
  std::vector<float> tolerance;
  std::string method;
};
ExpectedProduct expected_product(const MatmulProblem& problem);

// The student's launcher, bound to its arguments: launch(A, B, C) with device pointers.
using MatmulLauncher = std::function<void(const float* a, const float* b, float* c)>;

// One case: guarded buffers, C poisoned with NaN, the launcher called and synchronized, C
// compared (exactly, or within the tolerance), no writes outside C, A and B unchanged.
void run_matmul_case(CaseResult& result, const MatmulProblem& problem,
                     const std::vector<float>& expected, const std::vector<float>& tolerance,
                     const MatmulLauncher& launch, const std::string& call);

// The problem's operands for the diagnosis, named as the call shows them
// ("matmul_tiled_any(A, B, C, 7, 13, 11)": A and B), so that its words use the contract's letters;
// M and N when the call has no such form.
ProductInputs product_inputs(const MatmulProblem& problem, const std::string& call);

// Convenience: expected_product + run_matmul_case.
void check_matmul(CaseResult& result, const MatmulProblem& problem, const MatmulLauncher& launch,
                  const std::string& call);

// Whether a product is too large to check on the host (the expected product then comes from
// cuBLAS): such cases are checked on the GPU by check_large_matmul.
bool checked_on_device(const MatmulShape& shape);

// A large case checked on the GPU: inputs drawn there from `seed` (integers or reals), the
// product compared and its digest taken there, no writes outside C, A and B unchanged. Only a
// wrong case is copied back and checked again on the host (check_matmul, same inputs) for the
// details; it fails even when that second run is right.
void check_large_matmul(CaseResult& result, const MatmulShape& shape, Values values,
                        std::uint64_t seed, const MatmulLauncher& launch, const std::string& call);

// C = A * B with cuBLAS FP32 (row-major), on device pointers. cuBLAS is loaded at run time so
// that a student's kernel.cu cannot call it: it would not link.
void cublas_matmul(const float* a, const float* b, float* c, const MatmulShape& shape);
// The same on |A| and |B| elementwise is what the tolerance needs for large sizes.

// Speed references: work = 2 m n k floating-point operations.
TimedWork cublas_reference(const float* a, const float* b, float* c, const MatmulShape& shape);
TimedWork naive_reference(const float* a, const float* b, float* c, const MatmulShape& shape);

// The roofs of the roofline chart, measured on this GPU now: cudaMemcpy device to device bandwidth
// (on a 256 MiB buffer of its own) and cuBLAS FP32 on the given operands (written into c).
// 0 where a measurement failed: the chart then leaves that roof out.
struct Roofs {
  double memcpy_gbps = 0;
  double cublas_gflops = 0;
};
Roofs measure_roofs(const float* a, const float* b, float* c, const MatmulShape& shape);

}  // namespace harness
