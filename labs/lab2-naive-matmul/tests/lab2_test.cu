// Lab 2's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// widths and thresholds.
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "lab2.h"

namespace {

using harness::Check;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

const harness::LabMatmul kNaive = harness::square_matmul("matmul_naive", matmul_naive);

// One case per width: fresh random M and N, P poisoned with NaN and guarded; P must match the
// expected product (exactly for integers), M and N unchanged, nothing written outside P.
void check_widths(Check& check, const std::vector<Values>& kinds) {
  const auto widths = check.spec().counts("width", harness::kMaxSquareWidth);
  harness::check_products(check, kNaive, harness::squares(widths), kinds);
}

// Times matmul_naive against a reference on the same integer-valued M and N; P must equal
// cuBLAS's product bit for bit before timing and again after the timed runs.
void check_speed(Check& check, harness::SpeedReference reference) {
  const int width = check.spec().count("width", harness::kMaxSquareWidth);
  harness::check_matmul_speed(check, kNaive, MatmulShape::square(width), reference,
                              harness::WrongProductReasons::at_width(width));
}

}  // namespace

LAB_CHECK(MatmulNaive, Integers) { check_widths(check, {Values::integers}); }

LAB_CHECK(MatmulNaive, Reals) { check_widths(check, {Values::reals}); }

// The square worked examples of the course documents, with their published answers.
LAB_CHECK(MatmulNaive, KnownAnswers) {
  harness::check_known_answers(check, kNaive, harness::square_known_answers(),
                               /*note_sources=*/true);
}

// Large widths, where the expected product comes from cuBLAS FP32 on the GPU. Under
// compute-sanitizer the products above 1024^3 multiply-adds are left out.
LAB_CHECK(MatmulNaive, Large) { check_widths(check, {Values::integers, Values::reals}); }

LAB_CHECK(MatmulNaive, OneThreadPerElement) {
  const int width = check.spec().count("width", harness::kMaxSquareWidth);
  const auto activity =
      harness::observe_product(check, kNaive, MatmulShape::square(width),
                               harness::WrongProductReasons::at_width(width).launch_not_graded);
  if (!activity) return;
  long long threads = 0;
  for (const auto& launch : activity->kernels) threads += launch.threads();
  const long long elements = 1LL * width * width;
  if (threads >= elements) {
    check.set_verdict(Verdict::pass, fmt::format("{} threads for the {} elements of a {}x{} P",
                                                 threads, elements, width, width));
  } else {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} threads for the {} elements of a {}x{} P: one thread per "
                                  "element needs a grid that covers all of P",
                                  threads, elements, width, width));
  }
}

LAB_CHECK(MatmulNaive, Speed) { check_speed(check, harness::SpeedReference::naive); }

LAB_CHECK(MatmulNaive, SpeedVsCublas) { check_speed(check, harness::SpeedReference::cublas); }
