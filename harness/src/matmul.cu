#include "harness/matmul.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>

#ifndef LABS_EMULATION
#include <cublas_v2.h>
#endif
#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/device_compare.hpp"
#include "harness/diagnose_run.hpp"
#include "harness/launch_recorder.hpp"
#include "harness/random.hpp"

#ifndef LABS_CUDA_LIBRARY_DIR
#define LABS_CUDA_LIBRARY_DIR ""
#endif

namespace harness {
namespace {

constexpr double kUnitRoundoff = 1.0 / 16777216.0;  // 2^-24, float32
// Products above this many multiply-adds are computed with cuBLAS instead of on the CPU.
#ifndef LABS_EMULATION
constexpr double kHostReferenceLimit = 268435456.0;  // 2^28
#else
// Under the CPU emulation the CPU is the device: every product is computed in double.
constexpr double kHostReferenceLimit = 1e300;
#endif

double gamma(int k) {
  const double ku = k * kUnitRoundoff;
  return ku / (1.0 - ku);
}

#ifndef LABS_EMULATION
// cuBLAS, loaded at run time (see the header for why).
class Cublas {
 public:
  static Cublas& get() {
    static Cublas instance;
    return instance;
  }
  void sgemm_row_major(const float* a, const float* b, float* c, const MatmulShape& s) {
    const float one = 1.0f;
    const float zero = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T: swap the operands, no transposes.
    const cublasStatus_t status = sgemm_(handle_, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b,
                                         s.n, a, s.k, &zero, c, s.n);
    if (status != CUBLAS_STATUS_SUCCESS) {
      throw std::runtime_error(
          fmt::format("cublasSgemm failed with status {}", static_cast<int>(status)));
    }
  }

 private:
  using CreateFn = cublasStatus_t (*)(cublasHandle_t*);
  using MathModeFn = cublasStatus_t (*)(cublasHandle_t, cublasMath_t);
  using SgemmFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                     int, const float*, const float*, int, const float*, int,
                                     const float*, float*, int);

  Cublas() {
    // FP32 means FP32: an environment that turns on TF32 would flatter the reference 8x.
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
    const std::string dir = LABS_CUDA_LIBRARY_DIR;
    for (const std::string name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
      if (!dir.empty()) library_ = dlopen((dir + "/" + name).c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library_) library_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (library_) break;
    }
    if (!library_) throw std::runtime_error(fmt::format("cannot load cuBLAS: {}", dlerror()));
    auto create = reinterpret_cast<CreateFn>(dlsym(library_, "cublasCreate_v2"));
    auto math_mode = reinterpret_cast<MathModeFn>(dlsym(library_, "cublasSetMathMode"));
    sgemm_ = reinterpret_cast<SgemmFn>(dlsym(library_, "cublasSgemm_v2"));
    if (!create || !math_mode || !sgemm_) throw std::runtime_error("cuBLAS lacks cublasSgemm_v2");
    if (create(&handle_) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    // Pedantic: FP32 arithmetic throughout, no reduced-precision shortcuts.
    math_mode(handle_, CUBLAS_PEDANTIC_MATH);
  }
  // The handle lives until the process ends: destroying it at exit races the CUDA runtime's own
  // teardown.
  void* library_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  SgemmFn sgemm_ = nullptr;
};
#else
// The CPU emulation has no cuBLAS: its stand-in is a plain FP32 product on the CPU (device
// memory is host memory there). Only the speed checks call it, and those are not measured.
class Cublas {
 public:
  static Cublas& get() {
    static Cublas instance;
    return instance;
  }
  void sgemm_row_major(const float* a, const float* b, float* c, const MatmulShape& s) {
    for (int i = 0; i < s.m; ++i) {
      float* c_row = c + static_cast<size_t>(i) * s.n;
      std::fill(c_row, c_row + s.n, 0.0f);
      for (int l = 0; l < s.k; ++l) {
        const float a_il = a[static_cast<size_t>(i) * s.k + l];
        const float* b_row = b + static_cast<size_t>(l) * s.n;
        for (int j = 0; j < s.n; ++j) c_row[j] += a_il * b_row[j];
      }
    }
  }
};
#endif

__global__ void naive_matmul_kernel(const float* a, const float* b, float* c, int m, int k, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
  }
}

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

std::vector<KnownAnswer> known_answers() {
  std::vector<KnownAnswer> answers;
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
  answers.push_back({literal("paths of length 4 (10 vertices)", 10, 10, 10, adjacency, paths3),
                     paths4, "seed 004, figures 1.5 x 1.2 = 1.7"});

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
  Cublas::get().sgemm_row_major(a.data(), b.data(), c.data(), s);
  CUDA_CHECK(cudaDeviceSynchronize());
  expected.c = c.download();
  if (!exact) {
    std::vector<float> abs_a(p.a.size());
    std::vector<float> abs_b(p.b.size());
    std::transform(p.a.begin(), p.a.end(), abs_a.begin(), [](float v) { return std::fabs(v); });
    std::transform(p.b.begin(), p.b.end(), abs_b.begin(), [](float v) { return std::fabs(v); });
    a.upload(abs_a);
    b.upload(abs_b);
    Cublas::get().sgemm_row_major(a.data(), b.data(), c.data(), s);
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

  const CaseRerun rerun{
      {{"A", &p.a, s.k}, {"B", &p.b, s.n}},
      static_cast<std::size_t>(s.m) * static_cast<std::size_t>(s.n),
      [&launch](const std::vector<float*>& in, float* out) { launch(in[0], in[1], out); },
      call};
  FailedCase failed;
  failed.expected = &expected;
  failed.tolerance = &tolerance;
  failed.rows = s.m;
  failed.cols = s.n;
  failed.output = &c;
  failed.launch = main_launch(activity);
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

namespace {

// What the GPU found about one large case: right (nothing else needed) or the inputs to check it
// again on the host, with how wrong the first run was.
struct DeviceVerdict {
  bool right = false;
  DeviceComparison comparison;
  MatmulProblem inputs;  // only when not right
};

DeviceVerdict check_on_device(const MatmulShape& s, Values values, std::uint64_t seed,
                              const MatmulLauncher& launch, const std::string& call) {
  auto a = DeviceBuffer::matrix("A", s.m, s.k);
  auto b = DeviceBuffer::matrix("B", s.k, s.n);
  auto c = DeviceBuffer::matrix("C", s.m, s.n);
  if (values == Values::integers) {
    a.fill_random_integers(seed);
    b.fill_random_integers(seed ^ 0x5bd1e995ULL);
  } else {
    a.fill_random(seed);
    b.fill_random(seed ^ 0x5bd1e995ULL);
  }
  const auto a_before = device_copy(a, "A as given");
  const auto b_before = device_copy(b, "B as given");
  DeviceBuffer expected("expected C", c.size(), 0);
  Cublas::get().sgemm_row_major(a.data(), b.data(), expected.data(), s);
  // Reals: the bound is 3 gamma_k (|A| |B|)_ij, as expected_product gives it.
  std::unique_ptr<DeviceBuffer> magnitude;
  if (values == Values::reals) {
    DeviceBuffer abs_a("|A|", a.size(), 0);
    DeviceBuffer abs_b("|B|", b.size(), 0);
    absolute_values_on_device(a.data(), abs_a.data(), a.size());
    absolute_values_on_device(b.data(), abs_b.data(), b.size());
    magnitude = std::make_unique<DeviceBuffer>("|A| |B|", c.size(), 0);
    Cublas::get().sgemm_row_major(abs_a.data(), abs_b.data(), magnitude->data(), s);
    CUDA_CHECK(cudaDeviceSynchronize());  // before abs_a and abs_b are freed
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  launch(a.data(), b.data(), c.data());
  synchronize_after(call);

  DeviceVerdict verdict;
  verdict.comparison =
      compare_on_device(expected.data(), c.data(), magnitude ? magnitude->data() : nullptr,
                        3.0 * gamma(s.k), c.size());
  verdict.right = verdict.comparison.mismatches == 0 && c.check_guards().empty() &&
                  a.check_guards().empty() && b.check_guards().empty() &&
                  count_differences_on_device(a_before->data(), a.data(), a.size()) == 0 &&
                  count_differences_on_device(b_before->data(), b.data(), b.size()) == 0;
  if (!verdict.right) {
    verdict.inputs.shape = s;
    verdict.inputs.values = values;
    verdict.inputs.name = s.label();
    verdict.inputs.a = a_before->download();
    verdict.inputs.b = b_before->download();
  }
  return verdict;
}

}  // namespace

void check_large_matmul(CaseResult& result, const MatmulShape& shape, Values values,
                        std::uint64_t seed, const MatmulLauncher& launch, const std::string& call) {
  if (shape.m == shape.k && shape.k == shape.n) result.width = shape.m;
  auto verdict = check_on_device(shape, values, seed, launch, call);
  const auto& found = verdict.comparison;
  if (verdict.right) {
    result.total = static_cast<long long>(shape.m) * shape.n;
    result.max_abs_error = found.max_abs_error;
    result.tolerance = found.max_tolerance;
    if (values == Values::integers) result.output_digest = found.digest;
    return;
  }
  // The device buffers are freed; the full check on the host, on the same inputs, runs the kernel
  // again and finds the positions, the error map and the diagnosis.
  check_matmul(result, verdict.inputs, launch, call);
  if (result.verdict == Verdict::pass) {
    // Right the second time: the first run still counts.
    fail_case(result, fmt::format("{} of {} elements were wrong in the first run (or it wrote "
                                  "outside its matrices), though a second run was right: a race "
                                  "between threads, or a read of memory never written?",
                                  found.mismatches, static_cast<long long>(shape.m) * shape.n));
  }
}

void cublas_matmul(const float* a, const float* b, float* c, const MatmulShape& shape) {
  Cublas::get().sgemm_row_major(a, b, c, shape);
}

TimedWork cublas_reference(const float* a, const float* b, float* c, const MatmulShape& shape) {
  Cublas::get();  // load before timing starts
  return {"cuBLAS SGEMM (FP32)", [=] { Cublas::get().sgemm_row_major(a, b, c, shape); },
          shape.flops()};
}

Roofs measure_roofs(const float* a, const float* b, float* c, const MatmulShape& shape) {
  Roofs roofs;
  TimingOptions options;
  options.repetitions = 10;
  options.min_repetitions = 5;
  try {
    constexpr std::size_t kBytes = 256u << 20;
    DeviceBuffer from("bandwidth source", kBytes / sizeof(float), 0);
    DeviceBuffer to("bandwidth target", kBytes / sizeof(float), 0);
    const auto copy = memcpy_reference(from.data(), to.data(), kBytes);
    const auto blas = cublas_reference(a, b, c, shape);
    const auto measured = time_alternating({copy.run, blas.run}, options);
    roofs.memcpy_gbps = copy.work / (measured[0].median_ms * 1e-3) / 1e9;
    roofs.cublas_gflops = blas.work / (measured[1].median_ms * 1e-3) / 1e9;
  } catch (const std::exception&) {
    // The chart is help, not a verdict: without roofs it is left out.
  }
  return roofs;
}

TimedWork naive_reference(const float* a, const float* b, float* c, const MatmulShape& shape) {
  return {"naive kernel, one thread per element (16x16 blocks)",
          [=] {
            const dim3 block(16, 16);
            const dim3 grid((shape.n + 15) / 16, (shape.m + 15) / 16);
            naive_matmul_kernel<<<grid, block>>>(a, b, c, shape.m, shape.k, shape.n);
          },
          shape.flops()};
}

}  // namespace harness
