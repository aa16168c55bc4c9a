// Lab 7's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// shapes and thresholds. Shapes are written [m, k, n]: C (m x n) = A (m x k) * B (k x n).
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/matmul.hpp"
#include "harness/observe.hpp"
#include "harness/speed.hpp"
#include "lab7.h"

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

// ---- what the spec says --------------------------------------------------------------------

MatmulShape to_shape(const Check& check, const char* key, const std::vector<int>& mkn) {
  if (mkn.size() != 3 || mkn[0] < 1 || mkn[1] < 1 || mkn[2] < 1) {
    std::string given;
    for (int size : mkn) given += fmt::format("{}{}", given.empty() ? "" : ", ", size);
    throw harness::SpecError(
        fmt::format("{}: check '{}': '{}' holds shapes [m, k, n] of sizes "
                    ">= 1, got [{}]",
                    check.spec().source, check.spec().id, key, given));
  }
  if (1LL * mkn[0] * mkn[1] >= (1LL << 31) || 1LL * mkn[1] * mkn[2] >= (1LL << 31) ||
      1LL * mkn[0] * mkn[2] >= (1LL << 31)) {
    throw harness::SpecError(
        fmt::format("{}: check '{}': '{}': [{}, {}, {}] is too large for the "
                    "contract (int indices)",
                    check.spec().source, check.spec().id, key, mkn[0], mkn[1], mkn[2]));
  }
  MatmulShape shape;
  shape.m = mkn[0];
  shape.k = mkn[1];
  shape.n = mkn[2];
  return shape;
}

std::vector<MatmulShape> spec_shapes(const Check& check, const char* key) {
  const auto list = check.spec().param<std::vector<std::vector<int>>>(key);
  if (list.empty()) {
    throw harness::SpecError(fmt::format("{}: check '{}': '{}' must list at least one shape",
                                         check.spec().source, check.spec().id, key));
  }
  std::vector<MatmulShape> shapes;
  for (const auto& mkn : list) shapes.push_back(to_shape(check, key, mkn));
  return shapes;
}

MatmulShape spec_shape(const Check& check, const char* key) {
  return to_shape(check, key, check.spec().param<std::vector<int>>(key));
}

// "values": ["integers", "reals"]; integers alone when the check does not say.
std::vector<Values> spec_values(const Check& check) {
  if (!check.spec().has("values")) return {Values::integers};
  std::vector<Values> kinds;
  for (const auto& name : check.spec().param<std::vector<std::string>>("values")) {
    if (name == "integers") {
      kinds.push_back(Values::integers);
    } else if (name == "reals") {
      kinds.push_back(Values::reals);
    } else {
      throw harness::SpecError(
          fmt::format("{}: check '{}': 'values' holds \"integers\" or "
                      "\"reals\", not \"{}\"",
                      check.spec().source, check.spec().id, name));
    }
  }
  return kinds;
}

const char* values_name(Values values) { return values == Values::integers ? "integers" : "reals"; }

std::string call_text(const MatmulShape& shape) {
  return fmt::format("matmul_tiled_any(A, B, C, {}, {}, {})", shape.m, shape.k, shape.n);
}

harness::MatmulLauncher tiled_any(const MatmulShape& shape) {
  const int m = shape.m;
  const int k = shape.k;
  const int n = shape.n;
  return
      [m, k, n](const float* a, const float* b, float* c) { matmul_tiled_any(a, b, c, m, k, n); };
}

// ---- under compute-sanitizer ----------------------------------------------------------------

// compute-sanitizer's racecheck slows a tiled product about a thousandfold (on an H200 the
// 2048x2048x2048 product took 109 s under racecheck, against 2 ms alone; 4096 would take about
// 15 minutes, past the sanitizer test's time limit). Under compute-sanitizer the correctness
// checks therefore leave out products of more than kSanitizerMaxWork multiply-adds: a race or a
// bad index shows at the smaller sizes as well, and every size is graded in the normal run.
// compute-sanitizer (CUDA 13) marks the processes it runs with NV_SANITIZER_* variables;
// LAB_SANITIZER is for a harness that says so itself.
constexpr double kSanitizerMaxWork = 1073741824.0;  // 1024 x 1024 x 1024

bool under_compute_sanitizer() {
  return std::getenv("LAB_SANITIZER") != nullptr ||
         std::getenv("NV_SANITIZER_INJECTION_PORT_BASE") != nullptr;
}

// True (with a note on the check) when this case is left out under compute-sanitizer.
bool too_slow_for_sanitizer(Check& check, const MatmulShape& shape, const std::string& label) {
  if (!under_compute_sanitizer() || shape.flops() / 2 <= kSanitizerMaxWork) return false;
  check.note(fmt::format("{}: not run under compute-sanitizer (too slow there)", label));
  return true;
}

// Sets the verdict of a check whose every case was left out under compute-sanitizer.
void note_all_left_out(Check& check, int cases_run) {
  if (cases_run == 0) {
    check.set_verdict(Verdict::skipped,
                      "every case is too large to run under compute-sanitizer; they run in the "
                      "graded run");
  }
}

// ---- correctness ---------------------------------------------------------------------------

// One case per shape and kind of values: fresh seeded inputs, C poisoned with NaN and guarded;
// C must match (exactly for integers, within the float32 bound for reals), A and B unchanged,
// nothing written outside C.
void check_products(Check& check, const std::vector<Values>& kinds) {
  int cases_run = 0;
  for (const MatmulShape& shape : spec_shapes(check, "shapes_mkn")) {
    for (const Values values : kinds) {
      const auto label = fmt::format("{} {}", values_name(values), shape.label());
      if (too_slow_for_sanitizer(check, shape, label)) continue;
      ++cases_run;
      check.run_case(label, [&](CaseResult& result) {
        const auto problem = harness::random_problem(shape, values, check.seed_for(label));
        harness::check_matmul(result, problem, tiled_any(shape), call_text(shape));
      });
    }
  }
  note_all_left_out(check, cases_run);
}

// ---- speed ---------------------------------------------------------------------------------

// Times the launcher against the naive kernel, on integer inputs so that the product can be
// compared exactly with cuBLAS's on the GPU: first once (a kernel that computes nothing would
// otherwise be the fastest), then again on the output of the timed runs.
void check_speed(Check& check) {
  const MatmulShape shape = spec_shape(check, "shape_mkn");
  const double threshold = check.spec().positive("min_speedup_over_naive");
  const double max_spread = check.spec().positive("max_spread");
  harness::TimingOptions options;
  options.repetitions = check.spec().param<int>("repetitions");

  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  auto a = DeviceBuffer::matrix("A", shape.m, shape.k);
  auto b = DeviceBuffer::matrix("B", shape.k, shape.n);
  auto c = DeviceBuffer::matrix("C", shape.m, shape.n);
  auto expected = DeviceBuffer("expected", c.size(), 0);
  auto reference_out = DeviceBuffer("reference_out", c.size(), 0);
  a.upload(problem.a);
  b.upload(problem.b);
  harness::cublas_matmul(a.data(), b.data(), expected.data(), shape);
  CUDA_CHECK(cudaDeviceSynchronize());

  const int m = shape.m;
  const int k = shape.k;
  const int n = shape.n;
  const auto call = call_text(shape);
  const auto product_right = [&] {
    return harness::count_differences_on_device(expected.data(), c.data(), c.size()) == 0 &&
           c.check_guards().empty();
  };
  matmul_tiled_any(a.data(), b.data(), c.data(), m, k, n);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("the {} product is wrong, so its speed is not graded", shape.label()));
    return;
  }
  c.poison();

  const harness::TimedWork student{"matmul_tiled_any",
                                   [&] { matmul_tiled_any(a.data(), b.data(), c.data(), m, k, n); },
                                   shape.flops()};
  const auto timing = harness::measure_against(
      shape.label(), "GFLOP/s", student,
      harness::naive_reference(a.data(), b.data(), reference_out.data(), shape), options);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the {} product was wrong in the timed runs", shape.label()));
    return;
  }
  harness::judge_speed(check, timing, threshold, max_spread);
}

}  // namespace

LAB_CHECK(AnySize, Integers) { check_products(check, {Values::integers}); }

LAB_CHECK(AnySize, Reals) { check_products(check, {Values::reals}); }

// Every worked example of the course (seed 004's path counts, its 5-vertex question, Pascal's
// matrix times its signed form, a 3x2 times 2x4 product), compared exactly with the published
// answers.
LAB_CHECK(AnySize, KnownAnswers) {
  for (const auto& answer : harness::known_answers()) {
    const auto& problem = answer.problem;
    check.run_case(problem.name, [&](CaseResult& result) {
      harness::run_matmul_case(result, problem, answer.c, {}, tiled_any(problem.shape),
                               call_text(problem.shape));
    });
  }
}

LAB_CHECK(AnySize, Large) { check_products(check, spec_values(check)); }

// Runs the launcher once under the launch recorder on integer inputs. A launch shape is graded
// only for a kernel that computes the right answer.
LAB_CHECK(AnySize, SharedMemory) {
  const MatmulShape shape = spec_shape(check, "shape_mkn");
  const int m = shape.m;
  const int k = shape.k;
  const int n = shape.n;
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);  // before recording starts
  auto a = DeviceBuffer::matrix("A", m, k);
  auto b = DeviceBuffer::matrix("B", k, n);
  auto c = DeviceBuffer::matrix("C", m, n);
  a.upload(problem.a);
  b.upload(problem.b);

  const auto activity = harness::observe_launches(
      check, call_text(shape), [&] { matmul_tiled_any(a.data(), b.data(), c.data(), m, k, n); });
  if (!activity) return;
  if (c.download() != expected.c || !c.check_guards().empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the {} product is wrong, so its launches are not graded: fix "
                                  "correctness first",
                                  shape.label()));
    return;
  }
  std::string without;
  long long smallest = -1;
  for (const auto& launch : activity->kernels) {
    const long long shared = launch.static_shared_bytes + launch.dynamic_shared_bytes;
    if (shared <= 0) {
      without += fmt::format("{}{} {}", without.empty() ? "" : "; ", launch.name,
                             harness::describe_launch(launch));
    } else if (smallest < 0 || shared < smallest) {
      smallest = shared;
    }
  }
  if (without.empty()) {
    check.set_verdict(
        Verdict::pass,
        fmt::format("{} kernel launch(es), each with shared memory ({} bytes or more)",
                    activity->kernels.size(), smallest));
  } else {
    check.set_verdict(Verdict::fail,
                      fmt::format("launched with no shared memory: {}. The tiles As and Bs must be "
                                  "__shared__ arrays, and the product must be computed from them",
                                  without));
  }
}

LAB_CHECK(AnySize, Speed) { check_speed(check); }

LAB_CHECK(AnySize, SpeedOddSize) { check_speed(check); }
