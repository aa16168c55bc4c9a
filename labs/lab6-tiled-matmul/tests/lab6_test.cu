// Lab 6's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// sizes and thresholds.
//
// The worked examples of the course (harness::square_known_answers(): widths 10, 5, 8 and 12) are
// not used here: none is a multiple of 32, which this lab's contract requires. Lab 7 runs them all.
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/diagnose.hpp"
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "harness/matmul_spec.hpp"
#include "lab6.h"

namespace {

using harness::Check;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

const harness::LabMatmul kTiled = harness::square_matmul("matmul_tiled", matmul_tiled);

// ---- what the spec says --------------------------------------------------------------------

void require_contract_width(const Check& check, int width) {
  if (width < 32 || width % 32 != 0) {
    throw harness::SpecError(
        fmt::format("{}: check '{}': 'sizes' must hold multiples of 32 (lab 6's "
                    "contract), got {}",
                    check.spec().source, check.spec().id, width));
  }
}

std::vector<int> spec_widths(const Check& check) {
  const auto widths = check.spec().counts("width", harness::kMaxSquareWidth);
  for (int width : widths) require_contract_width(check, width);
  return widths;
}

int spec_width(const Check& check) {
  const int width = check.spec().count("width", harness::kMaxSquareWidth);
  require_contract_width(check, width);
  return width;
}

// ---- correctness ---------------------------------------------------------------------------

// One case per width and kind of values: fresh seeded inputs, P poisoned with NaN and guarded;
// P must match (exactly for integers, within the float32 bound for reals), M and N unchanged,
// nothing written outside P. Under compute-sanitizer the products above 1024^3 multiply-adds are
// left out.
void check_products(Check& check, const std::vector<Values>& kinds) {
  harness::check_products(check, kTiled, harness::squares(spec_widths(check)), kinds);
}

// ---- structure -----------------------------------------------------------------------------

// Runs the launcher once under the launch recorder on integer inputs and checks the product: a
// launch shape is graded only for a kernel that computes the right answer. Returns nothing (and
// sets the verdict) when the launches cannot be judged.
std::optional<harness::RecordedActivity> observe_product(Check& check) {
  const MatmulShape shape = MatmulShape::square(spec_width(check));
  return harness::observe_product(check, kTiled, shape,
                                  harness::WrongProductReasons::of_shape(shape).launch_not_graded);
}

// ---- speed ---------------------------------------------------------------------------------

// Times the launcher against a reference at one width, on integer inputs so that the product can
// be compared exactly with cuBLAS's on the GPU, before timing and after the timed runs.
void check_speed(Check& check, harness::SpeedReference reference) {
  const MatmulShape shape = MatmulShape::square(spec_width(check));
  harness::check_matmul_speed(check, kTiled, shape, reference,
                              harness::WrongProductReasons::of_shape(shape));
}

}  // namespace

LAB_CHECK(TiledMatmul, Integers) { check_products(check, {Values::integers}); }

LAB_CHECK(TiledMatmul, Reals) { check_products(check, {Values::reals}); }

LAB_CHECK(TiledMatmul, Large) { check_products(check, harness::spec_values(check.spec())); }

LAB_CHECK(TiledMatmul, SharedMemory) {
  const auto activity = observe_product(check);
  if (!activity) return;
  harness::judge_shared_memory(check, *activity, "Mds and Nds");
}

LAB_CHECK(TiledMatmul, ThreadsPerElement) {
  const auto activity = observe_product(check);
  if (!activity) return;
  const int width = spec_width(check);
  long long threads = 0;
  for (const auto& launch : activity->kernels) threads += launch.threads();
  const long long elements = 1LL * width * width;
  const auto summary = fmt::format("{} threads for the {} elements of P", threads, elements);
  if (threads <= elements) {
    check.set_verdict(Verdict::pass, summary);
  } else {
    check.set_verdict(Verdict::fail,
                      fmt::format("{}: at most one thread per element. width is a multiple of 32, "
                                  "so width / TILE_WIDTH blocks in each direction cover P exactly; "
                                  "extra blocks are threads that only wait",
                                  summary));
    check.diagnose(harness::make_diagnosis(
        "extra_blocks", fmt::format("{} threads launched where {} are needed", threads, elements)));
  }
}

LAB_CHECK(TiledMatmul, Speed) { check_speed(check, harness::SpeedReference::naive); }

LAB_CHECK(TiledMatmul, SpeedAt4096) { check_speed(check, harness::SpeedReference::naive); }

LAB_CHECK(TiledMatmul, ShareOfCublas) { check_speed(check, harness::SpeedReference::cublas); }
