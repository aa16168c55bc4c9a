// Lab 3's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// widths and thresholds.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/matmul.hpp"
#include "harness/observe.hpp"
#include "harness/speed.hpp"
#include "lab3.h"

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

constexpr int kMaxWidth = 16384;  // 1 GiB a matrix: more than any check needs
// A block holds at most this many threads: a grid rounded up to whole blocks adds fewer extra.
constexpr long long kMaxThreadsPerBlock = 1024;

// One of the lab's two launchers, with what it gives each thread ("row" or "column").
struct Design {
  void (*matmul)(const float*, const float*, float*, int);
  const char* name;
  const char* per_thread;
};
const Design kRowPerThread{matmul_row_per_thread, "matmul_row_per_thread", "row"};
const Design kColPerThread{matmul_col_per_thread, "matmul_col_per_thread", "column"};

// A width from the spec: a whole number from 1 to kMaxWidth.
int checked_width(const harness::CheckSpec& spec, const char* key, int width) {
  if (width < 1 || width > kMaxWidth) {
    throw harness::SpecError(fmt::format("{}: check '{}': '{}' holds {}; widths run from 1 to {}",
                                         spec.source, spec.id, key, width, kMaxWidth));
  }
  return width;
}

int width_param(const harness::CheckSpec& spec, const char* key) {
  return checked_width(spec, key, spec.param<int>(key));
}

std::vector<int> widths_param(const harness::CheckSpec& spec, const char* key) {
  const auto widths = spec.param<std::vector<int>>(key);
  if (widths.empty()) {
    throw harness::SpecError(fmt::format("{}: check '{}': '{}' must list at least one width",
                                         spec.source, spec.id, key));
  }
  for (const int width : widths) checked_width(spec, key, width);
  return widths;
}

MatmulShape square(int width) {
  MatmulShape shape;
  shape.m = shape.k = shape.n = width;
  return shape;
}

std::string call_text(const Design& design, int width) {
  return fmt::format("{}(M, N, P, {})", design.name, width);
}

harness::MatmulLauncher launcher(const Design& design, int width) {
  const auto matmul = design.matmul;
  return [matmul, width](const float* m, const float* n, float* p) { matmul(m, n, p, width); };
}

const char* values_name(Values values) { return values == Values::integers ? "integers" : "reals"; }

// One case per width: fresh random M and N, P poisoned with NaN and guarded; P must match the
// expected product (exactly for integers; from cuBLAS at the large widths), M and N unchanged,
// nothing written outside P.
void check_widths(Check& check, const Design& design, Values values) {
  for (const int width : widths_param(check.spec(), "widths")) {
    const auto shape = square(width);
    const auto label = fmt::format("{} {}", values_name(values), shape.label());
    check.run_case(label, [&](CaseResult& result) {
      const auto problem = harness::random_problem(shape, values, check.seed_for(label));
      harness::check_matmul(result, problem, launcher(design, width), call_text(design, width));
    });
  }
}

// The square worked examples of the course documents, with their published answers.
void check_known_answers(Check& check, const Design& design) {
  for (const auto& answer : harness::square_known_answers()) {
    check.note(fmt::format("{}: {}", answer.problem.name, answer.description));
    check.run_case(answer.problem.name, [&](CaseResult& result) {
      const int width = answer.problem.shape.m;
      harness::run_matmul_case(result, answer.problem, answer.c, {}, launcher(design, width),
                               call_text(design, width));
    });
  }
}

// The launch must start one thread per row (or column): at least Width threads, and fewer than
// Width + 1024, which is as far as rounding the grid up to whole blocks can go. A launch with a
// thread per element of P is far above that.
void check_one_thread_per_line(Check& check, const Design& design) {
  const int width = width_param(check.spec(), "width");
  const auto shape = square(width);
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);
  auto m = DeviceBuffer::matrix("M", width, width);
  auto n = DeviceBuffer::matrix("N", width, width);
  auto p = DeviceBuffer::matrix("P", width, width);
  m.upload(problem.a);
  n.upload(problem.b);

  const auto activity = harness::observe_launches(
      check, call_text(design, width), [&] { design.matmul(m.data(), n.data(), p.data(), width); });
  if (!activity) return;
  if (p.download() != expected.c || !p.check_guards().empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the product at width {} is wrong (or writes outside P), so its "
                                  "launch is not graded: fix correctness first",
                                  width));
    return;
  }
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
  } else {
    check.set_verdict(Verdict::pass, summary);
  }
}

// Times the launcher against the naive one-thread-per-element kernel on the same integer-valued M
// and N. Integer sums are exact in any order, so P must equal cuBLAS's product bit for bit before
// timing (a kernel that does nothing would otherwise be the fastest) and again after.
void check_speed(Check& check, const Design& design) {
  const int width = width_param(check.spec(), "width");
  const double threshold = check.spec().positive("min_ratio_to_naive");
  const double max_spread = check.spec().positive("max_spread");
  harness::TimingOptions options;
  options.repetitions = check.spec().param<int>("repetitions");

  const auto shape = square(width);
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  auto m = DeviceBuffer::matrix("M", width, width);
  auto n = DeviceBuffer::matrix("N", width, width);
  auto p = DeviceBuffer::matrix("P", width, width);
  DeviceBuffer expected("expected P", p.size(), 0);
  DeviceBuffer reference_p("reference P", p.size(), 0);
  m.upload(problem.a);
  n.upload(problem.b);
  harness::cublas_matmul(m.data(), n.data(), expected.data(), shape);
  CUDA_CHECK(cudaDeviceSynchronize());

  const auto call = call_text(design, width);
  const auto product_right = [&] {
    return harness::count_differences_on_device(expected.data(), p.data(), p.size()) == 0 &&
           p.check_guards().empty();
  };
  design.matmul(m.data(), n.data(), p.data(), width);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the product at width {} is wrong (or writes outside P), so its "
                                  "speed is not graded: fix correctness first",
                                  width));
    return;
  }
  p.poison();

  const harness::TimedWork student{
      design.name, [&] { design.matmul(m.data(), n.data(), p.data(), width); }, shape.flops()};
  const auto timing = harness::measure_against(
      shape.label(), "GFLOP/s", student,
      harness::naive_reference(m.data(), n.data(), reference_p.data(), shape), options);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the product at width {} was wrong in the timed runs", width));
    return;
  }
  harness::judge_speed(check, timing, threshold, max_spread);
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
