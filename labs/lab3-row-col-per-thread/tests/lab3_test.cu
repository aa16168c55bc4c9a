// Lab 3's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// widths and thresholds.
#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/diagnose.hpp"
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "lab3.h"

namespace {

using harness::Check;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

// A block holds at most this many threads: a grid rounded up to whole blocks adds fewer extra.
constexpr long long kMaxThreadsPerBlock = 1024;

// One of the lab's two launchers, with what it gives each thread ("row" or "column").
struct Design {
  harness::LabMatmul matmul;
  const char* per_thread;
};
const Design kRowPerThread{harness::square_matmul("matmul_row_per_thread", matmul_row_per_thread),
                           "row"};
const Design kColPerThread{harness::square_matmul("matmul_col_per_thread", matmul_col_per_thread),
                           "column"};

// One case per width: fresh random M and N, P poisoned with NaN and guarded; P must match the
// expected product (exactly for integers; from cuBLAS at the large widths), M and N unchanged,
// nothing written outside P.
void check_widths(Check& check, const Design& design, Values values) {
  const auto widths = check.spec().counts("width", harness::kMaxSquareWidth);
  harness::check_products(check, design.matmul, harness::squares(widths), {values});
}

// The square worked examples of the course documents, with their published answers.
void check_known_answers(Check& check, const Design& design) {
  harness::check_known_answers(check, design.matmul, harness::square_known_answers(),
                               /*note_sources=*/true);
}

// The launch must start one thread per row (or column): at least Width threads, and fewer than
// Width + 1024, which is as far as rounding the grid up to whole blocks can go. A launch with a
// thread per element of P is far above that.
void check_one_thread_per_line(Check& check, const Design& design) {
  const int width = check.spec().count("width", harness::kMaxSquareWidth);
  const auto activity =
      harness::observe_product(check, design.matmul, MatmulShape::square(width),
                               harness::WrongProductReasons::at_width(width).launch_not_graded);
  if (!activity) return;
  long long threads = 0;
  for (const auto& launch : activity->kernels) threads += launch.threads();
  const auto summary = fmt::format("{} threads for the {} {}s of a {}x{} P", threads, width,
                                   design.per_thread, width, width);
  if (threads < width) {
    check.set_verdict(Verdict::fail, fmt::format("{}: every {} needs its own thread (round the "
                                                 "grid up)",
                                                 summary, design.per_thread));
  } else if (threads >= width + kMaxThreadsPerBlock) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{}: one thread per {} needs {} threads, rounded up to a whole "
                                  "number of blocks (fewer than {}); a thread per element of P is "
                                  "lab 2's design, not this one",
                                  summary, design.per_thread, width, width + kMaxThreadsPerBlock));
    check.diagnose(harness::make_diagnosis(
        "thread_per_element",
        fmt::format("{} threads recorded for {} {}s", threads, width, design.per_thread)));
  } else {
    check.set_verdict(Verdict::pass, summary);
  }
}

// Times the launcher against the naive one-thread-per-element kernel on the same integer-valued M
// and N; P must equal cuBLAS's product bit for bit before timing and again after.
void check_speed(Check& check, const Design& design) {
  const int width = check.spec().count("width", harness::kMaxSquareWidth);
  harness::check_matmul_speed(check, design.matmul, MatmulShape::square(width),
                              harness::SpeedReference::naive,
                              harness::WrongProductReasons::at_width(width));
}

}  // namespace

LAB_CHECK(RowPerThread, Integers) { check_widths(check, kRowPerThread, Values::integers); }

LAB_CHECK(RowPerThread, Reals) { check_widths(check, kRowPerThread, Values::reals); }

LAB_CHECK(RowPerThread, KnownAnswers) { check_known_answers(check, kRowPerThread); }

LAB_CHECK(RowPerThread, OneThreadPerRow) { check_one_thread_per_line(check, kRowPerThread); }

LAB_CHECK(RowPerThread, Speed) { check_speed(check, kRowPerThread); }

LAB_CHECK(ColPerThread, Integers) { check_widths(check, kColPerThread, Values::integers); }

LAB_CHECK(ColPerThread, Reals) { check_widths(check, kColPerThread, Values::reals); }

LAB_CHECK(ColPerThread, KnownAnswers) { check_known_answers(check, kColPerThread); }

LAB_CHECK(ColPerThread, OneThreadPerColumn) { check_one_thread_per_line(check, kColPerThread); }

LAB_CHECK(ColPerThread, Speed) { check_speed(check, kColPerThread); }
