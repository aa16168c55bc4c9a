// Lab 10's checks (../spec.json: points, sizes, thresholds); any order of additions must pass.
#include <cmath>
#include "harness/buffer_checks.hpp"
#include "harness/random.hpp"
#include "harness/student_call.hpp"
#include "lab10.h"
#include "lab10_bonus.h"

void reduce_sum_fast(const float*, float*, int) __attribute__((weak));  // null if no bonus.cu
using namespace harness;  // NOLINT: a lab's test file is made of the harness's checks
// ---- the CPU reference: the sum in double, and how far any order of float additions may be ----
static Expected sum_of(const CaseData& data) {
  double sum = 0, positives = 0, negatives = 0;
  bool integers = true;
  for (const float x : data.inputs[0]) {
    sum += x;  // exact for whole numbers; for reals its rounding is far below the bound
    (x > 0 ? positives : negatives) += std::fabs(x);
    integers = integers && x == std::nearbyint(x);
  }
  // Whole numbers whose positive and whose negative parts each add up to 2^24 or less: every
  // partial sum, in any order, is a whole number that float32 holds exactly. Compare exactly.
  if (integers && std::fmax(positives, negatives) <= 0x1p24) return {{static_cast<float>(sum)}, {}};
  // Any order of the k additions is within gamma_k * sum |x| = k u / (1 - k u) * sum |x| (Higham,
  // Accuracy and Stability of Numerical Algorithms, 4.2), where k u < 1/2 (every correctness
  // size); past that (the speed checks' 2^28) 2^-12 of sum |x|. Plus half an ulp of the sum, for
  // rounding the expected value to float.
  const double u = 0x1p-24, k = static_cast<double>(data.inputs[0].size()) - 1;
  const double magnitude = positives + negatives;
  const double bound = k * u < 0.5 ? k * u / (1 - k * u) * magnitude : 0x1p-12 * magnitude;
  const auto tolerance = static_cast<float>(bound + u * std::fabs(sum));
  return {{static_cast<float>(sum)}, {std::nextafter(tolerance, INFINITY)}};
}
static BufferLab sum_lab(void (*reduce)(const float*, float*, int), const char* name) {
  return BufferLab(name, std::string(name) + "(in, out, {n})")
      .input("in", n_elements, Fill::integers)
      .output("out", one_element)
      .call([reduce](const DeviceArgs& a) { reduce(a.in(0), a.output, a.n()); })
      .reference(sum_of);
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
  for (const auto& size : case_sizes(check.spec(), "sizes", lab)) {
    const auto seed = check.seed_for(lab.case_label(size));
    const CaseData data{size, {random_integer_matrix(size.n(), 1, seed, -1, 1)}};
    check_case(check, lab, lab.case_label(size), data, sum_of(data));
  }
}
LAB_CHECK(ReduceSum, SharedMemory) { check_uses_shared_memory(check, lab, {}); }
LAB_CHECK(ReduceSum, Speed) { check_speed(check, lab); }
LAB_CHECK(ReduceSumFast, Integers) {
  if (tried(check)) check_correctness(check, fast);
}
LAB_CHECK(ReduceSumFast, Speed) {
  if (tried(check)) check_speed(check, fast);
}
