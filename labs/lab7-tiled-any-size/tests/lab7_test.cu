// Lab 7's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// shapes and thresholds. Shapes are written [m, k, n]: C (m x n) = A (m x k) * B (k x n).
#include <limits>
#include <vector>

#include "harness/check.hpp"
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "harness/matmul_spec.hpp"
#include "lab7.h"

namespace {

using harness::Check;
using harness::MatmulShape;
using harness::Values;

// Any size: only the int indices of the contract limit a shape.
constexpr int kMaxSize = std::numeric_limits<int>::max();

const harness::LabMatmul kTiledAny = harness::shaped_matmul("matmul_tiled_any", matmul_tiled_any);

// One case per shape and kind of values: fresh seeded inputs, C poisoned with NaN and guarded;
// C must match (exactly for integers, within the float32 bound for reals), A and B unchanged,
// nothing written outside C. Under compute-sanitizer the products above 1024^3 multiply-adds are
// left out.
void check_products(Check& check, const std::vector<Values>& kinds) {
  harness::check_products(check, kTiledAny, harness::matmul_shapes(check.spec(), kMaxSize), kinds);
}

// Times the launcher against the naive kernel, on integer inputs so that the product can be
// compared exactly with cuBLAS's on the GPU, before timing and after the timed runs.
void check_speed(Check& check) {
  const MatmulShape shape = harness::matmul_shape(check.spec(), kMaxSize);
  harness::check_matmul_speed(check, kTiledAny, shape, harness::SpeedReference::naive,
                              harness::WrongProductReasons::of_shape(shape));
}

}  // namespace

LAB_CHECK(AnySize, Integers) { check_products(check, {Values::integers}); }

LAB_CHECK(AnySize, Reals) { check_products(check, {Values::reals}); }

// Every worked example of the course (seed 004's path counts, its 5-vertex question, Pascal's
// matrix times its signed form, a 3x2 times 2x4 product), compared exactly with the published
// answers.
LAB_CHECK(AnySize, KnownAnswers) {
  harness::check_known_answers(check, kTiledAny, harness::known_answers(),
                               /*note_sources=*/false);
}

LAB_CHECK(AnySize, Large) { check_products(check, harness::spec_values(check.spec())); }

// Runs the launcher once under the launch recorder on integer inputs. A launch shape is graded
// only for a kernel that computes the right answer.
LAB_CHECK(AnySize, SharedMemory) {
  const MatmulShape shape = harness::matmul_shape(check.spec(), kMaxSize);
  const auto activity = harness::observe_product(
      check, kTiledAny, shape, harness::WrongProductReasons::of_shape(shape).launch_not_graded);
  if (!activity) return;
  harness::judge_shared_memory(check, *activity, "As and Bs");
}

LAB_CHECK(AnySize, Speed) { check_speed(check); }

LAB_CHECK(AnySize, SpeedOddSize) { check_speed(check); }
