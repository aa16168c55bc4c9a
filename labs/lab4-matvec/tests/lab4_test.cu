// Lab 4's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// sizes and thresholds.
//
// The lab's names follow the exercise (seed 000): A = B * C, with the matrix B, the vector C and
// the output A. The harness's matrix-product helpers call the left operand A and the output C, so
// a lab 4 problem is the harness's product (n x n) * (n x 1) with problem.a = the matrix B and
// problem.b = the vector C; the buffers below carry the lab's names so that messages match the
// handout.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/check.hpp"
#include "harness/cuda_check.hpp"
#include "harness/diagnose_run.hpp"
#include "harness/matmul.hpp"
#include "harness/observe.hpp"
#include "harness/speed.hpp"
#include "harness/student_call.hpp"
#include "lab4.h"
#include "lab4_bonus.h"

// The bonus is optional: bonus.cu may be absent from a submission. Declared weak, the function's
// address is null when nothing defines it, and the program still links.
void matvec_fast(float* A, const float* B, const float* C, int n) __attribute__((weak));

namespace {

using harness::CaseResult;
using harness::Check;
using harness::DeviceBuffer;
using harness::MatmulProblem;
using harness::MatmulShape;
using harness::Values;
using harness::Verdict;

// n * n must fit in an int: the contract indexes B with int arithmetic.
constexpr int kLargestN = 46340;

// The lab's launcher, or the bonus's (matvec_fast): same contract.
using MatvecLauncher = void (*)(float* A, const float* B, const float* C, int n);

std::string call_text(int n, const char* name = "matvec") {
  return fmt::format("{}(A, B, C, {})", name, n);
}

// The lab's three buffers for one problem: B (n x n) and C (n) uploaded, A (n) poisoned with NaN,
// all with guard zones.
struct MatvecBuffers {
  explicit MatvecBuffers(const MatmulProblem& problem, MatvecLauncher launcher = matvec)
      : matvec_launcher(launcher),
        n(problem.shape.m),
        B(DeviceBuffer::matrix("B", n, n)),
        C(DeviceBuffer::matrix("C", n, 1)),
        A(DeviceBuffer::matrix("A", n, 1)) {
    B.upload(problem.a);
    C.upload(problem.b);
  }
  void launch() { matvec_launcher(A.data(), B.data(), C.data(), n); }

  MatvecLauncher matvec_launcher;
  int n;
  DeviceBuffer B;
  DeviceBuffer C;
  DeviceBuffer A;
};

// A compared with the expected vector (exactly when `tolerance` is empty), nothing written
// outside A.
void expect_output(CaseResult& result, const MatvecBuffers& buffers,
                   const std::vector<float>& expected, const std::vector<float>& tolerance = {}) {
  harness::expect_matrix(result, expected, buffers.A, buffers.n, 1, tolerance);
  harness::expect_guards_intact(result, buffers.A, 1);
}

// One case: the launcher called once; A right, nothing written outside A, B and C unchanged.
void run_matvec_case(CaseResult& result, const MatmulProblem& problem,
                     const std::vector<float>& expected, const std::vector<float>& tolerance,
                     MatvecLauncher launcher = matvec, const char* name = "matvec") {
  MatvecBuffers buffers(problem, launcher);
  harness::CaseLaunchCapture capture;
  buffers.launch();
  harness::synchronize_after(call_text(buffers.n, name));
  const auto activity = capture.stop();
  expect_output(result, buffers, expected, tolerance);
  harness::expect_guards_intact(result, buffers.B, buffers.n);
  harness::expect_guards_intact(result, buffers.C, 1);
  harness::expect_unchanged(result, buffers.B, problem.a);
  harness::expect_unchanged(result, buffers.C, problem.b);
  // A wrong A: name the likely mistake. The product's operands are the matrix B and the vector C.
  const int n = buffers.n;
  const harness::CaseRerun rerun{{{"B", &problem.a, n}, {"C", &problem.b, 1}},
                                 static_cast<std::size_t>(n),
                                 [n](const std::vector<float*>& inputs, float* output) {
                                   matvec(output, inputs[0], inputs[1], n);
                                 },
                                 call_text(n)};
  harness::FailedCase failed;
  failed.expected = &expected;
  failed.tolerance = &tolerance;
  failed.rows = n;
  failed.cols = 1;
  failed.output = &buffers.A;
  failed.launch = harness::main_launch(activity);
  failed.product = harness::ProductInputs{problem.a, problem.b, n, n, 1, "B", "C"};
  failed.rerun = &rerun;
  harness::diagnose_failed_case(result, failed);
}

// Random problems at every n of the spec: integers compare exactly, reals within the harness's
// tolerance (derived from n); large ones are checked against cuBLAS.
void check_random_problems(Check& check, Values values, MatvecLauncher launcher = matvec,
                           const char* name = "matvec") {
  for (int n : check.spec().widths("n", kLargestN)) {
    const MatmulShape shape{n, n, 1};
    const auto label = fmt::format("{} {}", harness::values_name(values), shape.label());
    check.run_case(label, [&](CaseResult& result) {
      const auto problem = harness::random_problem(shape, values, check.seed_for(label));
      const auto expected = harness::expected_product(problem);
      run_matvec_case(result, problem, expected.c, expected.tolerance, launcher, name);
    });
  }
}

// ---- known answers from the course material ------------------------------------------------

struct VectorAnswer {
  MatmulProblem problem;  // a = the matrix B, b = the vector C
  std::vector<float> expected;
};

const harness::KnownAnswer& find_answer(const std::vector<harness::KnownAnswer>& answers,
                                        const std::string& name) {
  for (const auto& answer : answers) {
    if (answer.problem.name == name) return answer;
  }
  throw std::runtime_error(fmt::format("the harness has no known answer named '{}'", name));
}

std::vector<float> column_of(const std::vector<float>& matrix, int size, int column) {
  std::vector<float> out(static_cast<size_t>(size));
  for (int i = 0; i < size; ++i)
    out[static_cast<size_t>(i)] = matrix[static_cast<size_t>(i) * size + column];
  return out;
}

VectorAnswer vector_answer(const std::string& label, const std::vector<float>& matrix, int n,
                           std::vector<float> vector, std::vector<float> expected) {
  VectorAnswer answer;
  answer.problem.shape = MatmulShape{n, n, 1};
  answer.problem.values = Values::integers;
  answer.problem.a = matrix;
  answer.problem.b = std::move(vector);
  answer.problem.name = label;
  answer.expected = std::move(expected);
  return answer;
}

// A square product P = M N from the seeds, cut down to one column: M times column j of N is
// column j of P.
VectorAnswer column_answer(const std::string& label, const harness::KnownAnswer& product,
                           int column) {
  const auto& s = product.problem.shape;
  if (s.m != s.k || s.k != s.n || column >= s.n) {
    throw std::runtime_error(fmt::format("known answer '{}' is not square or has no column {}",
                                         product.problem.name, column));
  }
  return vector_answer(label, product.problem.a, s.n, column_of(product.problem.b, s.n, column),
                       column_of(product.c, s.n, column));
}

std::vector<VectorAnswer> known_vector_answers() {
  const auto answers = harness::known_answers();
  const auto& graph10 = find_answer(answers, "paths of length 4 (10 vertices)");
  std::vector<VectorAnswer> out;
  // Seed 004, figure 1.5: the adjacency matrix of the 10-vertex graph times a vector of ones
  // counts each vertex's edges (A..J). The degrees add up to 34: twice the graph's 17 edges.
  out.push_back(vector_answer("degrees of the 10 vertices (adjacency x ones)", graph10.problem.a,
                              10, std::vector<float>(10, 1.0f), {2, 4, 4, 3, 2, 5, 4, 4, 3, 3}));
  // Seed 004, figures 1.3 and 1.7: adjacency times "paths of length 3 to J" is "paths of length
  // 4 to J" (C to J: 7).
  out.push_back(column_answer("paths of length 4 to J, 10 vertices (C to J: 7)", graph10, 9));
  // Seed 004, exploration question 1: paths of length 4 times paths of length 4 to B gives the
  // paths of length 8 to B (A to B: 208).
  out.push_back(column_answer("paths of length 8 to B, 5 vertices (A to B: 208)",
                              find_answer(answers, "paths of length 8 (5 vertices)"), 1));
  // Seed 004, exploration question 4: Pascal's matrix times a column of its signed form is a
  // column of the identity. Pascal's matrix is not symmetric, so a transposed B shows here.
  out.push_back(column_answer("Pascal 8x8 times column 0 of signed Pascal (e0)",
                              find_answer(answers, "Pascal 8x8 times signed Pascal"), 0));
  out.push_back(column_answer("Pascal 12x12 times column 5 of signed Pascal (e5)",
                              find_answer(answers, "Pascal 12x12 times signed Pascal"), 5));
  return out;
}

// Bandwidth as a share of cudaMemcpy's, timed in the same run. The kernel reads B once (and C, and
// writes A): 4 (n^2 + 2n) bytes. The reference copies B (n^2 floats) device to device, which reads
// and writes 4 n^2 bytes each. Correctness is checked at the timed size first (a kernel that does
// nothing would be the fastest) and again after the timed runs.
void check_matvec_speed(Check& check, MatvecLauncher launcher, const char* name) {
  const int n = check.spec().width("n", kLargestN);
  const double threshold = check.spec().positive("min_share_of_memcpy");
  const double max_spread = check.spec().positive("max_spread");
  harness::TimingOptions options;
  options.repetitions = check.spec().param<int>("repetitions");

  const MatmulShape shape{n, n, 1};
  const auto problem = harness::random_problem(shape, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);
  MatvecBuffers buffers(problem, launcher);
  const std::size_t matrix_bytes = static_cast<std::size_t>(n) * n * sizeof(float);
  DeviceBuffer reference_out("reference_out", static_cast<std::size_t>(n) * n, 0);
  const auto call = call_text(n, name);
  const auto output_wrong = [&] {
    CaseResult output;
    expect_output(output, buffers, expected.c);
    return output.verdict == Verdict::pass ? std::string() : output.reason;
  };

  buffers.launch();
  harness::synchronize_after(call);
  if (const auto wrong = output_wrong(); !wrong.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} is wrong ({}), so its speed is not graded", call, wrong));
    return;
  }
  buffers.A.poison();

  const double bytes_moved = 4.0 * (static_cast<double>(n) * n + 2.0 * n);
  const harness::TimedWork student{name, [&] { buffers.launch(); }, bytes_moved};
  const auto timing = harness::measure_rounds(
      shape.label(), "GB/s", student,
      harness::memcpy_reference(buffers.B.data(), reference_out.data(), matrix_bytes), options,
      check.spec().rounds());
  harness::synchronize_after(call);
  if (const auto wrong = output_wrong(); !wrong.empty()) {
    check.set_verdict(Verdict::fail,
                      fmt::format("{} was wrong in the timed runs ({})", call, wrong));
    return;
  }
  harness::judge_speed(check, timing, threshold, max_spread);
}

// The bonus checks run only for an attempt: matvec_fast defined (bonus.cu in the build) and
// writing something. The starter's stub writes nothing: that is "not attempted", no extra points
// and no failure, rather than a wrong product.
bool bonus_attempted(Check& check) {
  if (!LAB_STUDENT_DEFINES(matvec_fast)) {
    check.set_verdict(Verdict::not_attempted,
                      "matvec_fast is not defined (no bonus.cu): the bonus is optional");
    return false;
  }
  const MatmulShape shape{64, 64, 1};
  MatvecBuffers buffers(
      harness::random_problem(shape, Values::integers, check.seed_for("attempted")), matvec_fast);
  buffers.launch();
  harness::synchronize_after(call_text(shape.m, "matvec_fast"));
  const auto written = buffers.A.download();
  if (std::all_of(written.begin(), written.end(), [](float v) { return std::isnan(v); })) {
    check.set_verdict(Verdict::not_attempted,
                      "matvec_fast writes nothing (the starter's stub): the bonus is optional");
    return false;
  }
  return true;
}

}  // namespace

LAB_CHECK(Matvec, Integers) { check_random_problems(check, Values::integers); }

LAB_CHECK(Matvec, Reals) { check_random_problems(check, Values::reals); }

LAB_CHECK(Matvec, Large) { check_random_problems(check, Values::integers); }

LAB_CHECK(Matvec, Examples) {
  for (auto answer : known_vector_answers()) {
    // Renumbered at random each run, so that no kernel can carry the published answers.
    harness::relabel(answer.problem, answer.expected, check.seed_for(answer.problem.name));
    check.run_case(answer.problem.name, [&](CaseResult& result) {
      run_matvec_case(result, answer.problem, answer.expected, {});
    });
  }
}

LAB_CHECK(Matvec, Threads) {
  const int n = check.spec().width("n", kLargestN);
  const int max_extra = check.spec().param<int>("max_extra_threads");
  const auto problem =
      harness::random_problem(MatmulShape{n, n, 1}, Values::integers, check.seed_for("input"));
  const auto expected = harness::expected_product(problem);
  MatvecBuffers buffers(problem);
  const auto activity = harness::observe_launches(check, call_text(n), [&] { buffers.launch(); });
  if (!activity) return;

  CaseResult output;
  expect_output(output, buffers, expected.c);
  if (output.verdict != Verdict::pass) {
    check.set_verdict(Verdict::fail, fmt::format("{} is wrong ({}), so its launch shape is not "
                                                 "graded: fix correctness first",
                                                 call_text(n), output.reason));
    return;
  }
  long long threads = 0;
  for (const auto& launch : activity->kernels) threads += launch.threads();
  const auto summary = fmt::format("{} threads for the {} elements of A", threads, n);
  if (threads < n) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("{}: one thread per element needs a grid that covers all of A", summary));
  } else if (threads > 1LL * n + max_extra) {
    check.set_verdict(
        Verdict::fail,
        fmt::format("{}: one thread per element of A needs n threads, rounded up to whole blocks "
                    "(at most {} more); {} would be one per element of B",
                    summary, max_extra, 1LL * n * n));
  } else {
    check.set_verdict(Verdict::pass, summary);
  }
}

LAB_CHECK(Matvec, Speed) { check_matvec_speed(check, matvec, "matvec"); }

// ---- bonus (optional, extra points): matvec_fast in bonus.cu --------------------------------

LAB_CHECK(MatvecFast, Integers) {
  if (!bonus_attempted(check)) return;
  check_random_problems(check, Values::integers, matvec_fast, "matvec_fast");
}

LAB_CHECK(MatvecFast, Speed) {
  if (!bonus_attempted(check)) return;
  check_matvec_speed(check, matvec_fast, "matvec_fast");
}
