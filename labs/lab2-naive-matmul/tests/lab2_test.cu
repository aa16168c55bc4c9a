// Lab 2's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// widths and thresholds.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/matmul.hpp"
#include "harness/observe.hpp"
#include "harness/speed.hpp"
#include "lab2.h"

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

constexpr int kMaxWidth = 16384;  // 1 GiB a matrix: more than any check needs

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

std::string call_text(int width) { return fmt::format("matmul_naive(M, N, P, {})", width); }

harness::MatmulLauncher launcher(int width) {
  return [width](const float* m, const float* n, float* p) { matmul_naive(m, n, p, width); };
}

const char* values_name(Values values) { return values == Values::integers ? "integers" : "reals"; }

// One case per width: fresh random M and N, P poisoned with NaN and guarded; P must match the
// expected product (exactly for integers), M and N unchanged, nothing written outside P.
void check_widths(Check& check, Values values, const std::vector<int>& widths) {
  for (const int width : widths) {
    const auto shape = square(width);
    const auto label = fmt::format("{} {}", values_name(values), shape.label());
    check.run_case(label, [&](CaseResult& result) {
      const auto problem = harness::random_problem(shape, values, check.seed_for(label));
      harness::check_matmul(result, problem, launcher(width), call_text(width));
    });
  }
}

enum class Reference { naive, cublas };

// Times matmul_naive against a reference on the same integer-valued M and N. Integer sums are
// exact in any order, so P must equal cuBLAS's product bit for bit before timing (a kernel that
// does nothing would otherwise be the fastest) and again after the timed runs.
void check_speed(Check& check, Reference which, const char* threshold_key) {
  const int width = width_param(check.spec(), "width");
  const double threshold = check.spec().positive(threshold_key);
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

  const auto call = call_text(width);
  const auto product_right = [&] {
    return harness::count_differences_on_device(expected.data(), p.data(), p.size()) == 0 &&
           p.check_guards().empty();
  };
  matmul_naive(m.data(), n.data(), p.data(), width);
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
      "matmul_naive", [&] { matmul_naive(m.data(), n.data(), p.data(), width); }, shape.flops()};
  const auto reference =
      which == Reference::naive
          ? harness::naive_reference(m.data(), n.data(), reference_p.data(), shape)
          : harness::cublas_reference(m.data(), n.data(), reference_p.data(), shape);
  const auto timing =
      harness::measure_against(shape.label(), "GFLOP/s", student, reference, options);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the product at width {} was wrong in the timed runs", width));
    return;
  }
  harness::judge_speed(check, timing, threshold, max_spread);
}

}  // namespace

LAB_CHECK(MatmulNaive, Integers) {
  check_widths(check, Values::integers, widths_param(check.spec(), "widths"));
}

LAB_CHECK(MatmulNaive, Reals) {
  check_widths(check, Values::reals, widths_param(check.spec(), "widths"));
}

// The square worked examples of the course documents, with their published answers.
LAB_CHECK(MatmulNaive, KnownAnswers) {
  for (const auto& answer : harness::square_known_answers()) {
    check.note(fmt::format("{}: {}", answer.problem.name, answer.description));
    check.run_case(answer.problem.name, [&](CaseResult& result) {
      const int width = answer.problem.shape.m;
      harness::run_matmul_case(result, answer.problem, answer.c, {}, launcher(width),
                               call_text(width));
    });
  }
}

// Large widths, where the expected product comes from cuBLAS FP32 on the GPU.
LAB_CHECK(MatmulNaive, Large) {
  const auto widths = widths_param(check.spec(), "widths");
  check_widths(check, Values::integers, widths);
  check_widths(check, Values::reals, widths);
}

LAB_CHECK(MatmulNaive, OneThreadPerElement) {
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
      check, call_text(width), [&] { matmul_naive(m.data(), n.data(), p.data(), width); });
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

LAB_CHECK(MatmulNaive, Speed) { check_speed(check, Reference::naive, "min_ratio_to_naive"); }

LAB_CHECK(MatmulNaive, SpeedVsCublas) {
  check_speed(check, Reference::cublas, "min_share_of_cublas");
}
