// Lab 6's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// sizes and thresholds.
//
// The worked examples of the course (harness::square_known_answers(): widths 10, 5, 8 and 12) are
// not used here: none is a multiple of 32, which this lab's contract requires. Lab 7 runs them all.
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
#include "lab6.h"

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

// ---- what the spec says --------------------------------------------------------------------

void require_contract_width(const Check& check, const char* key, int width) {
  if (width < 32 || width % 32 != 0) {
    throw harness::SpecError(
        fmt::format("{}: check '{}': '{}' must hold multiples of 32 (lab 6's "
                    "contract), got {}",
                    check.spec().source, check.spec().id, key, width));
  }
}

std::vector<int> spec_widths(const Check& check, const char* key) {
  const auto widths = check.spec().param<std::vector<int>>(key);
  if (widths.empty()) {
    throw harness::SpecError(fmt::format("{}: check '{}': '{}' must list at least one width",
                                         check.spec().source, check.spec().id, key));
  }
  for (int width : widths) require_contract_width(check, key, width);
  return widths;
}

int spec_width(const Check& check, const char* key) {
  const int width = check.spec().param<int>(key);
  require_contract_width(check, key, width);
  return width;
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

MatmulShape square(int width) {
  MatmulShape shape;
  shape.m = width;
  shape.k = width;
  shape.n = width;
  return shape;
}

std::string call_text(int width) { return fmt::format("matmul_tiled(M, N, P, {})", width); }

harness::MatmulLauncher tiled(int width) {
  return [width](const float* m, const float* n, float* p) { matmul_tiled(m, n, p, width); };
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

// One case per width and kind of values: fresh seeded inputs, P poisoned with NaN and guarded;
// P must match (exactly for integers, within the float32 bound for reals), M and N unchanged,
// nothing written outside P.
void check_products(Check& check, const std::vector<Values>& kinds) {
  int cases_run = 0;
  for (const int width : spec_widths(check, "widths")) {
    for (const Values values : kinds) {
      const MatmulShape shape = square(width);
      const auto label = fmt::format("{} {}", values_name(values), shape.label());
      if (too_slow_for_sanitizer(check, shape, label)) continue;
      ++cases_run;
      check.run_case(label, [&](CaseResult& result) {
        const auto problem = harness::random_problem(shape, values, check.seed_for(label));
        harness::check_matmul(result, problem, tiled(width), call_text(width));
      });
    }
  }
  note_all_left_out(check, cases_run);
}

// ---- structure -----------------------------------------------------------------------------

// Runs the launcher once under the launch recorder on integer inputs and checks the product: a
// launch shape is graded only for a kernel that computes the right answer. Returns nothing (and
// sets the verdict) when the launches cannot be judged.
std::optional<harness::RecordedActivity> observe_product(Check& check) {
  const int width = spec_width(check, "width");
  const MatmulShape shape = square(width);
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);  // before recording starts
  auto m = DeviceBuffer::matrix("M", width, width);
  auto n = DeviceBuffer::matrix("N", width, width);
  auto p = DeviceBuffer::matrix("P", width, width);
  m.upload(problem.a);
  n.upload(problem.b);

  auto activity = harness::observe_launches(
      check, call_text(width), [&] { matmul_tiled(m.data(), n.data(), p.data(), width); });
  if (!activity) return std::nullopt;
  if (p.download() != expected.c || !p.check_guards().empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the {} product is wrong, so its launches are not graded: fix "
                                  "correctness first",
                                  shape.label()));
    return std::nullopt;
  }
  return activity;
}

// ---- speed ---------------------------------------------------------------------------------

enum class Reference { naive, cublas };

// Times the launcher against a reference at one width, on integer inputs so that the product can
// be compared exactly with cuBLAS's on the GPU: first once (a kernel that computes nothing would
// otherwise be the fastest), then again on the output of the timed runs.
void check_speed(Check& check, Reference reference, const char* threshold_key) {
  const int width = spec_width(check, "width");
  const double threshold = check.spec().positive(threshold_key);
  const double max_spread = check.spec().positive("max_spread");
  harness::TimingOptions options;
  options.repetitions = check.spec().param<int>("repetitions");

  const MatmulShape shape = square(width);
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  auto m = DeviceBuffer::matrix("M", width, width);
  auto n = DeviceBuffer::matrix("N", width, width);
  auto p = DeviceBuffer::matrix("P", width, width);
  auto expected = DeviceBuffer("expected", p.size(), 0);
  auto reference_out = DeviceBuffer("reference_out", p.size(), 0);
  m.upload(problem.a);
  n.upload(problem.b);
  harness::cublas_matmul(m.data(), n.data(), expected.data(), shape);
  CUDA_CHECK(cudaDeviceSynchronize());

  const auto call = call_text(width);
  const auto product_right = [&] {
    return harness::count_differences_on_device(expected.data(), p.data(), p.size()) == 0 &&
           p.check_guards().empty();
  };
  matmul_tiled(m.data(), n.data(), p.data(), width);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("the {} product is wrong, so its speed is not graded", shape.label()));
    return;
  }
  p.poison();

  const harness::TimedWork student{
      "matmul_tiled", [&] { matmul_tiled(m.data(), n.data(), p.data(), width); }, shape.flops()};
  const auto timing = harness::measure_against(
      shape.label(), "GFLOP/s", student,
      reference == Reference::naive
          ? harness::naive_reference(m.data(), n.data(), reference_out.data(), shape)
          : harness::cublas_reference(m.data(), n.data(), reference_out.data(), shape),
      options);
  harness::synchronize_after(call);
  if (!product_right()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("the {} product was wrong in the timed runs", shape.label()));
    return;
  }
  harness::judge_speed(check, timing, threshold, max_spread);
}

}  // namespace

LAB_CHECK(TiledMatmul, Integers) { check_products(check, {Values::integers}); }

LAB_CHECK(TiledMatmul, Reals) { check_products(check, {Values::reals}); }

LAB_CHECK(TiledMatmul, Large) { check_products(check, spec_values(check)); }

LAB_CHECK(TiledMatmul, SharedMemory) {
  const auto activity = observe_product(check);
  if (!activity) return;
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
    check.set_verdict(
        Verdict::fail,
        fmt::format("launched with no shared memory: {}. The tiles Mds and Nds must "
                    "be __shared__ arrays, and the product must be computed from them",
                    without));
  }
}

LAB_CHECK(TiledMatmul, ThreadsPerElement) {
  const auto activity = observe_product(check);
  if (!activity) return;
  const int width = spec_width(check, "width");
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
  }
}

LAB_CHECK(TiledMatmul, Speed) { check_speed(check, Reference::naive, "min_speedup_over_naive"); }

LAB_CHECK(TiledMatmul, SpeedAt4096) {
  check_speed(check, Reference::naive, "min_speedup_over_naive");
}

LAB_CHECK(TiledMatmul, ShareOfCublas) {
  check_speed(check, Reference::cublas, "min_share_of_cublas");
}
