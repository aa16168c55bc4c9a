#include "harness/matmul_checks.hpp"

#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "harness/compare.hpp"
#include "harness/cuda_check.hpp"
#include "harness/device_buffer.hpp"
#include "harness/device_compare.hpp"
#include "harness/diagnose.hpp"
#include "harness/observe.hpp"
#include "harness/speed.hpp"

namespace harness {

LabMatmul square_matmul(const std::string& name, SquareMatmul matmul) {
  return {
      name,
      [matmul](const MatmulShape& shape) -> MatmulLauncher {
        const int width = shape.m;
        return
            [matmul, width](const float* m, const float* n, float* p) { matmul(m, n, p, width); };
      },
      [name](const MatmulShape& shape) { return fmt::format("{}(M, N, P, {})", name, shape.m); }};
}

LabMatmul shaped_matmul(const std::string& name, ShapedMatmul matmul) {
  return {name,
          [matmul](const MatmulShape& shape) -> MatmulLauncher {
            const int m = shape.m;
            const int k = shape.k;
            const int n = shape.n;
            return [matmul, m, k, n](const float* a, const float* b, float* c) {
              matmul(a, b, c, m, k, n);
            };
          },
          [name](const MatmulShape& shape) {
            return fmt::format("{}(A, B, C, {}, {}, {})", name, shape.m, shape.k, shape.n);
          }};
}

WrongProductReasons WrongProductReasons::at_width(int width) {
  return {
      fmt::format("the product at width {} is wrong (or writes outside P), so its launch is not "
                  "graded: fix correctness first",
                  width),
      fmt::format("the product at width {} is wrong (or writes outside P), so its speed is not "
                  "graded: fix correctness first",
                  width),
      fmt::format("the product at width {} was wrong in the timed runs", width)};
}

WrongProductReasons WrongProductReasons::of_shape(const MatmulShape& shape) {
  return {fmt::format("the {} product is wrong, so its launches are not graded: fix correctness "
                      "first",
                      shape.label()),
          fmt::format("the {} product is wrong, so its speed is not graded", shape.label()),
          fmt::format("the {} product was wrong in the timed runs", shape.label())};
}

void check_products(Check& check, const LabMatmul& lab, const std::vector<MatmulShape>& shapes,
                    const std::vector<Values>& kinds) {
  int cases_run = 0;
  for (const MatmulShape& shape : shapes) {
    for (const Values values : kinds) {
      const auto label = fmt::format("{} {}", values_name(values), shape.label());
      if (leave_out_under_sanitizer(check, shape.flops() / 2, label)) continue;
      ++cases_run;
      check.run_case(label, [&](CaseResult& result) {
        if (checked_on_device(shape)) {
          check_large_matmul(result, shape, values, check.seed_for(label), lab.bind(shape),
                             lab.call(shape));
          return;
        }
        const auto problem = random_problem(shape, values, check.seed_for(label));
        check_matmul(result, problem, lab.bind(shape), lab.call(shape));
      });
    }
  }
  skip_if_all_left_out(check, cases_run);
}

void check_known_answers(Check& check, const LabMatmul& lab,
                         const std::vector<KnownAnswer>& answers, bool note_sources) {
  for (const auto& published : answers) {
    // Renumbered at random each run, so that no kernel can carry the published answers.
    auto problem = published.problem;
    auto c = published.c;
    relabel(problem, c, check.seed_for(problem.name));
    if (note_sources) check.note(fmt::format("{}: {}", problem.name, published.description));
    check.run_case(problem.name, [&](CaseResult& result) {
      run_matmul_case(result, problem, c, {}, lab.bind(problem.shape), lab.call(problem.shape));
    });
  }
}

std::optional<RecordedActivity> observe_product(Check& check, const LabMatmul& lab,
                                                const MatmulShape& shape,
                                                const std::string& wrong_reason) {
  const auto problem = random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = expected_product(problem);  // before recording starts
  auto a = DeviceBuffer::matrix("A", shape.m, shape.k);
  auto b = DeviceBuffer::matrix("B", shape.k, shape.n);
  auto c = DeviceBuffer::matrix("C", shape.m, shape.n);
  a.upload(problem.a);
  b.upload(problem.b);

  const auto launch = lab.bind(shape);
  auto activity =
      observe_launches(check, lab.call(shape), [&] { launch(a.data(), b.data(), c.data()); });
  if (!activity) return std::nullopt;
  if (c.download() != expected.c || !c.check_guards().empty()) {
    check.set_verdict(Verdict::fail, wrong_reason);
    return std::nullopt;
  }
  return activity;
}

void judge_shared_memory(Check& check, const RecordedActivity& activity, const std::string& tiles) {
  judge_shared_memory_use(check, activity,
                          fmt::format("The tiles {} must be __shared__ arrays, and the product "
                                      "must be computed from them",
                                      tiles));
}

namespace {

// A check whose spec says "timed_with": X takes its timing from X's runs: X times the student's
// kernel once against both references (naive and cuBLAS, in the same rounds), and the later check
// reads its own reference's figures here instead of timing the same kernel at the same size again.
struct TimedForLater {
  std::string timed_by;  // X
  std::string size;      // the shape X timed
  Timing timing;         // against the later check's reference, with X's digest and roofs
  std::vector<KernelFacts> kernels;
};

std::map<std::pair<std::string, SpeedReference>, TimedForLater>& timed_for_later() {
  static std::map<std::pair<std::string, SpeedReference>, TimedForLater> timings;
  return timings;  // keyed by (X, reference)
}

bool timed_by_another(const std::string& id) {
  for (const auto& other : lab_run().spec.checks) {
    const auto it = other.params.find("timed_with");
    if (other.kind == "speed" && it != other.params.end() && it->is_string() && *it == id) {
      return true;
    }
  }
  return false;
}

// The spec's "timed_with" of this check, when the check it names has timed this size already.
const TimedForLater* earlier_timing(const Check& check, SpeedReference reference,
                                    const MatmulShape& shape) {
  if (!check.spec().has("timed_with")) return nullptr;
  const auto by = check.spec().param<std::string>("timed_with");
  const auto it = timed_for_later().find({by, reference});
  return it != timed_for_later().end() && it->second.size == shape.label() ? &it->second : nullptr;
}

// The timed references, in the order of `kinds`.
std::vector<TimedWork> speed_references(const std::vector<SpeedReference>& kinds,
                                        const DeviceBuffer& a, const DeviceBuffer& b,
                                        DeviceBuffer& reference_c, const MatmulShape& shape) {
  std::vector<TimedWork> references;
  for (const auto kind : kinds) {
    references.push_back(kind == SpeedReference::naive
                             ? naive_reference(a.data(), b.data(), reference_c.data(), shape)
                             : cublas_reference(a.data(), b.data(), reference_c.data(), shape));
  }
  return references;
}

// The roofline: the least traffic a product needs, the bandwidth and cuBLAS in this run.
void add_roofline(Timing& judged, const std::vector<SpeedReference>& kinds,
                  const std::vector<Timing>& timings, const DeviceBuffer& a, const DeviceBuffer& b,
                  DeviceBuffer& reference_c, const MatmulShape& shape) {
  judged.flops = shape.flops();
  judged.bytes =
      4.0 * (1.0 * shape.m * shape.k + 1.0 * shape.k * shape.n + 1.0 * shape.m * shape.n);
  auto roofs = measure_roofs(a.data(), b.data(), reference_c.data(), shape);
  // cuBLAS timed in the same rounds as the student's kernel is the better figure for its roof.
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == SpeedReference::cublas) roofs.cublas_gflops = timings[i].reference_rate;
  }
  judged.memcpy_gbps = roofs.memcpy_gbps;
  judged.cublas_gflops = roofs.cublas_gflops;
}

// Keeps the timing against the other reference for the check that names this one "timed_with",
// with this check's digest, roofs and kernel facts.
void keep_for_later(const Check& check, SpeedReference kind, const MatmulShape& shape, Timing later,
                    const Timing& judged) {
  later.output_digest = judged.output_digest;
  later.flops = judged.flops;
  later.bytes = judged.bytes;
  later.memcpy_gbps = judged.memcpy_gbps;
  later.cublas_gflops = judged.cublas_gflops;
  timed_for_later()[{check.spec().id, kind}] = {check.spec().id, shape.label(), later,
                                                check.kernel_facts()};
}

// The buffers of a timed product and the fresh work around each timed call. A and B are drawn
// on the GPU (drawing 2 x 4096^2 numbers on the host took longer than the timing) as small
// integers: every product and sum is exact in FP32, in any order, so C is compared exactly. Each
// round of timed calls draws new A and B; the references multiply them into reference C, which
// is then the expected product; C is set to NaN before the student's call and compared whole
// after it.
class TimedProduct {
 public:
  TimedProduct(Check& check, const LabMatmul& lab, const MatmulShape& shape)
      : a(DeviceBuffer::matrix("A", shape.m, shape.k)),
        b(DeviceBuffer::matrix("B", shape.k, shape.n)),
        c(DeviceBuffer::matrix("C", shape.m, shape.n)),
        expected("expected C", c.size(), 0),
        reference_c("reference C", c.size(), 0),
        check_(check),
        shape_(shape),
        launch_(lab.bind(shape)),
        call_text_(lab.call(shape)) {
    draw("input");
    cublas_matmul(a.data(), b.data(), expected.data(), shape);
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  void draw(const std::string& name) {
    a.fill_random_integers(check_.seed_for(name + " A"));
    b.fill_random_integers(check_.seed_for(name + " B"));
  }
  void draw_next() { draw(next_timed_round_label()); }
  void launch() { launch_(a.data(), b.data(), c.data()); }
  void call() {
    launch();
    synchronize_after(call_text_);
  }
  // C is the product of the first A and B, and nothing was written outside it.
  bool right() const {
    return count_differences_on_device(expected.data(), c.data(), c.size()) == 0 &&
           c.check_guards().empty();
  }

  // After a timed call: why C is not the product the references made of this round's A and B.
  std::string verify_timed_call() {
    ++calls_;
    const auto found = compare_on_device(reference_c.data(), c.data(), nullptr, 1.0, c.size());
    if (found.mismatches == 0) {
      return c.check_guards(1).empty() ? std::string()
                                       : fmt::format("the {} timed call of {} wrote outside C",
                                                     ordinal(calls_), call_text_);
    }
    const long long index = found.first_mismatch;
    return fmt::format(
        "the {} timed call of {} left C wrong at ({}, {}): expected {}, got {} ({} of {} "
        "elements wrong): every timed call gets new A and B and a C set to NaN, so each must "
        "do the whole product",
        ordinal(calls_), call_text_, index / shape_.n, index % shape_.n,
        element_on_device(reference_c.data(), index), element_on_device(c.data(), index),
        found.mismatches, c.size());
  }

  DeviceBuffer a, b, c;
  DeviceBuffer expected;     // the product of the first A and B
  DeviceBuffer reference_c;  // what the references wrote this round

 private:
  Check& check_;
  MatmulShape shape_;
  MatmulLauncher launch_;
  std::string call_text_;
  int calls_ = 0;
};

}  // namespace

void check_matmul_speed(Check& check, const LabMatmul& lab, const MatmulShape& shape,
                        SpeedReference reference, const WrongProductReasons& reasons) {
  const double threshold =
      check.spec().min_ratio(reference == SpeedReference::naive ? "naive" : "cublas");
  const double max_spread = check.spec().positive("max_spread");
  if (const auto* earlier = earlier_timing(check, reference, shape)) {
    // The product was right before and after those runs (or the earlier check kept nothing).
    const auto& judged = earlier->timing;
    for (const auto& facts : earlier->kernels) check.add_kernel_facts(facts);
    check.note(
        fmt::format("timed in the same runs as {} (the kernel once, both references "
                    "alternating with it)",
                    earlier->timed_by));
    judge_share(check, judged, threshold, max_spread);
    return;
  }
  TimedProduct product(check, lab, shape);
  record_kernel_facts(check, [&] { product.call(); });
  if (!product.right()) {
    check.set_verdict(Verdict::fail, reasons.before_timing);
    return;
  }
  std::vector<SpeedReference> kinds{reference};
  const bool for_later = timed_by_another(check.spec().id);
  if (for_later) {
    kinds.push_back(reference == SpeedReference::naive ? SpeedReference::cublas
                                                       : SpeedReference::naive);
  }
  auto references = speed_references(kinds, product.a, product.b, product.reference_c, shape);
  for (auto& timed : references) timed.before = [&] { product.reference_c.poison(); };
  TimingOptions options;
  options.repetitions = check.spec().param<int>("repetitions");
  options.draw_inputs = [&] { product.draw_next(); };
  TimedWork student{lab.name, [&] { product.launch(); }, shape.flops()};
  student.before = [&] { product.c.poison(); };
  student.verify = [&] { return product.verify_timed_call(); };
  std::vector<Timing> timings;
  try {
    timings = measure_rounds_each(shape.label(), "GFLOP/s", student, references, options,
                                  check.spec().rounds());
  } catch (const WrongTimedCall& wrong) {
    check.set_verdict(Verdict::fail, wrong.what());
    return;
  }
  // The first A and B again, and one more call checked whole: the product's digest.
  product.draw("input");
  product.c.poison();
  product.call();
  if (!product.right()) {
    check.set_verdict(Verdict::fail, reasons.in_timed_runs);
    return;
  }
  auto judged = timings.front();
  judged.output_digest = output_digest_on_device(product.c.data(), product.c.size());
  add_roofline(judged, kinds, timings, product.a, product.b, product.reference_c, shape);
  if (for_later) keep_for_later(check, kinds.back(), shape, timings.back(), judged);
  judge_share(check, judged, threshold, max_spread);  // judge_speed unless scored by share
}

}  // namespace harness
