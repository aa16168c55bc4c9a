#include "harness/matmul.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/device_compare.hpp"
#include "harness/diagnose_run.hpp"
#include "harness/launch_recorder.hpp"
#include "harness/random.hpp"
#include "product_error_bound.hpp"

namespace harness {
namespace {

// Products above this many multiply-adds are computed with cuBLAS instead of on the CPU.
#ifndef LABS_EMULATION
constexpr double kHostReferenceLimit = 268435456.0;  // 2^28
#else
// Under the CPU emulation the CPU is the device: every product is computed in double.
constexpr double kHostReferenceLimit = 1e300;
#endif

MatmulProblem literal(const std::string& name, int m, int k, int n, std::vector<float> a,
                      std::vector<float> b) {
  MatmulProblem p;
  p.shape = {m, k, n};
  p.values = Values::integers;
  p.a = std::move(a);
  p.b = std::move(b);
  p.name = name;
  return p;
}

std::vector<double> host_product(const MatmulProblem& p, bool absolute) {
  const auto& s = p.shape;
  std::vector<double> c(static_cast<size_t>(s.m) * s.n, 0.0);
  for (int i = 0; i < s.m; ++i) {
    for (int l = 0; l < s.k; ++l) {
      const double a = absolute ? std::fabs(p.a[static_cast<size_t>(i) * s.k + l])
                                : p.a[static_cast<size_t>(i) * s.k + l];
      const float* b_row = &p.b[static_cast<size_t>(l) * s.n];
      double* c_row = &c[static_cast<size_t>(i) * s.n];
      for (int j = 0; j < s.n; ++j) c_row[j] += a * (absolute ? std::fabs(b_row[j]) : b_row[j]);
    }
  }
  return c;
}

// The pascal matrix L (L_ij = C(i, j)) and its signed form S (S_ij = (-1)^(i+j) C(i, j)):
// L S = I (seed 004, exploration question 4).
std::pair<std::vector<float>, std::vector<float>> pascal(int size) {
  std::vector<float> l(static_cast<size_t>(size) * size, 0.0f);
  for (int i = 0; i < size; ++i) {
    l[static_cast<size_t>(i) * size] = 1;
    for (int j = 1; j <= i; ++j) {
      l[static_cast<size_t>(i) * size + j] = l[static_cast<size_t>(i - 1) * size + j - 1] +
                                             (j < i ? l[static_cast<size_t>(i - 1) * size + j] : 0);
    }
  }
  auto s = l;
  for (int i = 0; i < size; ++i) {
    for (int j = 0; j < size; ++j) {
      if ((i + j) % 2) s[static_cast<size_t>(i) * size + j] *= -1;
    }
  }
  return {l, s};
}

std::vector<float> identity(int size) {
  std::vector<float> m(static_cast<size_t>(size) * size, 0.0f);
  for (int i = 0; i < size; ++i) m[static_cast<size_t>(i) * size + i] = 1;
  return m;
}

}  // namespace

std::string MatmulShape::label() const { return fmt::format("{}x{} * {}x{}", m, k, k, n); }

std::vector<MatmulShape> squares(const std::vector<int>& widths) {
  std::vector<MatmulShape> shapes;
  for (const int width : widths) shapes.push_back(MatmulShape::square(width));
  return shapes;
}

const char* values_name(Values values) { return values == Values::integers ? "integers" : "reals"; }

MatmulProblem random_problem(const MatmulShape& shape, Values values, std::uint64_t seed) {
  MatmulProblem p;
  p.shape = shape;
  p.values = values;
  p.name = shape.label();
  if (values == Values::integers) {
    p.a = random_integer_matrix(shape.m, shape.k, seed, -4, 4);
    p.b = random_integer_matrix(shape.k, shape.n, seed ^ 0x5bd1e995ULL, -4, 4);
  } else {
    p.a = random_real_matrix(shape.m, shape.k, seed);
    p.b = random_real_matrix(shape.k, shape.n, seed ^ 0x5bd1e995ULL);
  }
  return p;
}

namespace {

// Seed 004, figures 1.5, 1.2 and 1.7 (see known_answers).
KnownAnswer graph_paths_answer() {
  // Seed 004, figures 1.5, 1.2 and 1.7: paths of length 1 times paths of length 3 in a graph of
  // 10 vertices gives paths of length 4 (C to J: 7; P(2,3) = 22, P(5,5) = 10, P(10,10) = 25).
  const std::vector<float> adjacency = {0, 1, 1, 0, 0, 0, 0, 0, 0, 0,  //
                                        1, 0, 1, 1, 0, 1, 0, 0, 0, 0,  //
                                        1, 1, 0, 1, 1, 0, 0, 0, 0, 0,  //
                                        0, 1, 1, 0, 0, 1, 0, 0, 0, 0,  //
                                        0, 0, 1, 0, 0, 0, 0, 1, 0, 0,  //
                                        0, 1, 0, 1, 0, 0, 1, 1, 1, 0,  //
                                        0, 0, 0, 0, 0, 1, 0, 1, 1, 1,  //
                                        0, 0, 0, 0, 1, 1, 1, 0, 0, 1,  //
                                        0, 0, 0, 0, 0, 1, 1, 0, 0, 1,  //
                                        0, 0, 0, 0, 0, 0, 1, 1, 1, 0};
  const std::vector<float> paths3 = {2, 6, 6, 3, 1, 3,  1,  2,  1,  0,  //
                                     6, 6, 8, 7, 3, 9,  3,  3,  2,  3,  //
                                     6, 8, 4, 8, 5, 4,  3,  2,  2,  1,  //
                                     3, 7, 8, 4, 2, 8,  3,  3,  2,  3,  //
                                     1, 3, 5, 2, 0, 3,  2,  5,  3,  1,  //
                                     3, 9, 4, 8, 3, 6,  10, 11, 10, 4,  //
                                     1, 3, 3, 3, 2, 10, 8,  9,  8,  8,  //
                                     2, 3, 2, 3, 5, 11, 9,  4,  4,  9,  //
                                     1, 2, 2, 2, 3, 10, 8,  4,  4,  8,  //
                                     0, 3, 1, 3, 1, 4,  8,  9,  8,  4};
  const std::vector<float> paths4 = {12, 14, 12, 15, 8,  13, 6,  5,  4,  4,   //
                                     14, 30, 22, 23, 11, 21, 17, 18, 15, 8,   //
                                     12, 22, 27, 16, 6,  23, 9,  13, 8,  7,   //
                                     15, 23, 16, 23, 11, 19, 16, 16, 14, 8,   //
                                     8,  11, 6,  11, 10, 15, 12, 6,  6,  10,  //
                                     13, 21, 23, 19, 15, 48, 31, 23, 20, 31,  //
                                     6,  17, 9,  16, 12, 31, 35, 28, 26, 25,  //
                                     5,  18, 13, 16, 6,  23, 28, 34, 29, 17,  //
                                     4,  15, 8,  14, 6,  20, 26, 29, 26, 16,  //
                                     4,  8,  7,  8,  10, 31, 25, 17, 16, 25};
  return {literal("paths of length 4 (10 vertices)", 10, 10, 10, adjacency, paths3), paths4,
          "seed 004, figures 1.5 x 1.2 = 1.7"};
}

}  // namespace

// The handout's worked examples, copied as the figures print them: rows of numbers that look
// alike (a `duplicates` pair by shape) but are data, each checked against its figure; deliberately
// literal, so that a reader can hold each matrix against the page it comes from.
std::vector<KnownAnswer> known_answers() {
  std::vector<KnownAnswer> answers;
  answers.push_back(graph_paths_answer());

  // Seed 004, exploration question 1: paths of length 4 in a 5-vertex graph, squared, give the
  // paths of length 8 (A to B: 208).
  const std::vector<float> m4 = {9, 3, 6,  11, 1, 3,  15, 8, 7,  11, 6, 8, 8,
                                 8, 6, 11, 7,  8, 15, 3,  1, 11, 6,  3, 9};
  auto eight = literal("paths of length 8 (5 vertices)", 5, 5, 5, m4, m4);
  std::vector<float> m8;
  for (double v : host_product(eight, false)) m8.push_back(static_cast<float>(v));
  answers.push_back({eight, m8, "seed 004, exploration question 1 (A to B: 208)"});

  // Seed 004, exploration question 4: Pascal's triangle times its signed form is the identity.
  for (int size : {8, 12}) {
    auto [l, s] = pascal(size);
    answers.push_back(
        {literal(fmt::format("Pascal {0}x{0} times signed Pascal", size), size, size, size, l, s),
         identity(size), "seed 004, exploration question 4"});
  }

  // A 3x2 times 2x4 product, small enough to check by hand.
  answers.push_back(
      {literal("3x2 times 2x4", 3, 2, 4, {1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6, 7, 8}),
       {11, 14, 17, 20, 23, 30, 37, 44, 35, 46, 57, 68},
       "worked by hand: rows (1 2), (3 4), (5 6) times rows (1 2 3 4), (5 6 7 8)"});
  return answers;
}

void relabel(MatmulProblem& problem, std::vector<float>& c, std::uint64_t seed) {
  const int m = problem.shape.m;
  const int k = problem.shape.k;
  const int n = problem.shape.n;
  std::mt19937_64 engine(seed);
  const auto permutation = [&](int size) {
    std::vector<int> order(static_cast<std::size_t>(size));
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), engine);
    return order;
  };
  const auto p = permutation(m);
  const auto q = permutation(k);
  const auto r = permutation(n);
  std::vector<float> a(problem.a.size());
  std::vector<float> b(problem.b.size());
  std::vector<float> product(c.size());
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j) a[1LL * i * k + j] = problem.a[1LL * p[i] * k + q[j]];
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < n; ++j) b[1LL * i * n + j] = problem.b[1LL * q[i] * n + r[j]];
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) product[1LL * i * n + j] = c[1LL * p[i] * n + r[j]];
  problem.a = std::move(a);
  problem.b = std::move(b);
  c = std::move(product);
}

std::vector<KnownAnswer> square_known_answers() {
  auto all = known_answers();
  std::vector<KnownAnswer> square;
  for (auto& answer : all) {
    const auto& s = answer.problem.shape;
    if (s.m == s.k && s.k == s.n) square.push_back(std::move(answer));
  }
  return square;
}

ExpectedProduct expected_product(const MatmulProblem& p) {
  const auto& s = p.shape;
  ExpectedProduct expected;
  const bool exact = p.values == Values::integers;
  const double work = static_cast<double>(s.m) * s.n * s.k;
  if (work <= kHostReferenceLimit) {
    expected.method = "computed in double on the CPU";
    const auto c = host_product(p, false);
    expected.c.assign(c.begin(), c.end());
    if (!exact) {
      const auto magnitude = host_product(p, true);
      const double g = 2.0 * gamma(s.k);
      for (double v : magnitude) expected.tolerance.push_back(static_cast<float>(g * v));
    }
    return expected;
  }
  // Large: cuBLAS FP32 on the GPU. Integer sums stay exact in any order; for reals both the
  // reference and the student carry up to gamma_k |A||B| of error, hence the wider factor.
  expected.method = "cuBLAS FP32 (pedantic) on the GPU";
  DeviceBuffer a("A", p.a.size(), 0);
  DeviceBuffer b("B", p.b.size(), 0);
  DeviceBuffer c("C", static_cast<size_t>(s.m) * s.n, 0);
  a.upload(p.a);
  b.upload(p.b);
  cublas_matmul(a.data(), b.data(), c.data(), s);
  CUDA_CHECK(cudaDeviceSynchronize());
  expected.c = c.download();
  if (!exact) {
    std::vector<float> abs_a(p.a.size());
    std::vector<float> abs_b(p.b.size());
    std::transform(p.a.begin(), p.a.end(), abs_a.begin(), [](float v) { return std::fabs(v); });
    std::transform(p.b.begin(), p.b.end(), abs_b.begin(), [](float v) { return std::fabs(v); });
    a.upload(abs_a);
    b.upload(abs_b);
    cublas_matmul(a.data(), b.data(), c.data(), s);
    CUDA_CHECK(cudaDeviceSynchronize());
    const double g = 3.0 * gamma(s.k);
    for (float v : c.download()) expected.tolerance.push_back(static_cast<float>(g * v));
  }
  return expected;
}

ProductInputs product_inputs(const MatmulProblem& p, const std::string& call) {
  const auto& s = p.shape;
  ProductInputs inputs{p.a, p.b, s.m, s.k, s.n};
  const auto open = call.find('(');
  if (open == std::string::npos) return inputs;
  const auto first_end = call.find(',', open);
  if (first_end == std::string::npos) return inputs;
  const auto second_end = call.find(',', first_end + 1);
  if (second_end == std::string::npos) return inputs;
  const auto name = [&call](std::size_t from, std::size_t to) {
    const auto begin = call.find_first_not_of(' ', from);
    return begin < to ? call.substr(begin, to - begin) : std::string();
  };
  const auto first = name(open + 1, first_end);
  const auto second = name(first_end + 1, second_end);
  if (!first.empty() && !second.empty()) {
    inputs.first = first;
    inputs.second = second;
  }
  return inputs;
}

void run_matmul_case(CaseResult& result, const MatmulProblem& p, const std::vector<float>& expected,
                     const std::vector<float>& tolerance, const MatmulLauncher& launch,
                     const std::string& call) {
  const auto& s = p.shape;
  if (s.m == s.k && s.k == s.n) result.width = s.m;
  auto a = DeviceBuffer::matrix("A", s.m, s.k);
  auto b = DeviceBuffer::matrix("B", s.k, s.n);
  auto c = DeviceBuffer::matrix("C", s.m, s.n);
  a.upload(p.a);
  b.upload(p.b);
  CaseLaunchCapture capture;
  launch(a.data(), b.data(), c.data());
  synchronize_after(call);
  const auto activity = capture.stop();
  expect_matrix(result, expected, c, s.m, s.n, tolerance);
  expect_guards_intact(result, c, s.n);
  expect_guards_intact(result, a, s.k);
  expect_guards_intact(result, b, s.n);
  expect_unchanged(result, a, p.a);
  expect_unchanged(result, b, p.b);

  const CaseRerun rerun{{{"A", p.a, s.k}, {"B", p.b, s.n}},
                        static_cast<std::size_t>(s.m) * static_cast<std::size_t>(s.n),
                        [&launch](const std::vector<void*>& in, float* out) {
                          launch(static_cast<float*>(in[0]), static_cast<float*>(in[1]), out);
                        },
                        call};
  FailedCase failed;
  failed.expected = &expected;
  failed.tolerance = &tolerance;
  failed.rows = s.m;
  failed.cols = s.n;
  failed.output = &c;
  failed.launch = main_launch(activity);
  failed.uses_shared_memory = any_shared_memory(activity);
  failed.product = product_inputs(p, call);
  failed.rerun = &rerun;
  diagnose_failed_case(result, failed);
}

void check_matmul(CaseResult& result, const MatmulProblem& problem, const MatmulLauncher& launch,
                  const std::string& call) {
  const auto expected = expected_product(problem);
  run_matmul_case(result, problem, expected.c, expected.tolerance, launch, call);
}

bool checked_on_device(const MatmulShape& shape) {
  return static_cast<double>(shape.m) * shape.n * shape.k > kHostReferenceLimit;
}

}  // namespace harness
