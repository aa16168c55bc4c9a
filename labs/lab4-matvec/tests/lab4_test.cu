// Lab 4's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// sizes and thresholds. The checks themselves are the harness's for any lab that maps input
// buffers to an output buffer (harness/buffer_checks.hpp); this file says what matvec is and
// carries the course's worked examples.
//
// The lab's names follow the exercise (seed 000): A = B * C, with the matrix B, the vector C and
// the output A. The harness's matrix-product helpers call the left operand A and the output C, so
// a lab 4 problem is the harness's product (n x n) * (n x 1) with problem.a = the matrix B and
// problem.b = the vector C; the buffers below carry the lab's names so that messages match the
// handout.
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/matmul.hpp"
#include "harness/student_call.hpp"
#include "lab4.h"
#include "lab4_bonus.h"

// The bonus is optional: bonus.cu may be absent from a submission. The lab program always has
// the function (its proxy, cmake/LabContract.cmake); whether the submission defines it is the
// launcher's answer, LAB_STUDENT_DEFINES (harness/student_call.hpp).

namespace {

using harness::Fill;
using harness::MatmulProblem;
using harness::MatmulShape;
using harness::Values;

// n * n must fit in an int: the contract indexes B with int arithmetic.
constexpr int kLargestN = 46340;

// The lab's launcher, or the bonus's (matvec_fast): same contract.
using MatvecLauncher = void (*)(float* A, const float* B, const float* C, int n);

// The harness's product (n x n) * (n x 1) on a case's B and C.
MatmulProblem product_of(const harness::CaseData& data, Fill fill) {
  MatmulProblem problem;
  problem.shape = MatmulShape{static_cast<int>(data.size.n()), static_cast<int>(data.size.n()), 1};
  problem.values = fill == Fill::integers ? Values::integers : Values::reals;
  problem.a = data.inputs[0].floats();
  problem.b = data.inputs[1].floats();
  return problem;
}

// A = B * C on the GPU, for the speed checks' n = 16384, where every timed call has new inputs and
// its output is verified: a warp per row, in double (exact for the integer inputs those checks
// draw; for reals, each row's bound gamma_n * sum |B_ij C_j| plus half an ulp, as for a sum).
__global__ void matvec_reference_kernel(const float* B, const float* C, float* A, float* bound,
                                        int n) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= n) return;
  double sum = 0, magnitude = 0;
  for (int j = lane; j < n; j += 32) {
    const double term = static_cast<double>(B[static_cast<long long>(row) * n + j]) * C[j];
    sum += term;
    magnitude += fabs(term);
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
    magnitude += __shfl_down_sync(0xffffffffu, magnitude, offset);
  }
  if (lane == 0) {
    const double u = 0x1p-24, k = n;
    A[row] = static_cast<float>(sum);
    bound[row] = static_cast<float>(k * u / (1 - k * u) * magnitude + u * fabs(sum)) * 1.0001f;
  }
}

bool matvec_on_device(const harness::DeviceArgs& a, float* expected, float* tolerance, Fill fill) {
  constexpr int kThreads = 256;
  const long long threads = 32LL * a.n();
  matvec_reference_kernel<<<static_cast<unsigned>((threads + kThreads - 1) / kThreads), kThreads>>>(
      a.in(0), a.in(1), expected, tolerance, a.n());
  CUDA_CHECK(cudaGetLastError());
  return fill == Fill::reals;  // integers: exact
}

// matvec(A, B, C, n): A = B * C, exact on integers, within the product's tolerance on reals
// (derived from n; large products come from cuBLAS). A wrong A is diagnosed as a product of B
// and C. Cases are labelled "integers 100x100 * 100x1".
harness::BufferLab matvec_lab(Fill fill, MatvecLauncher launcher = matvec,
                              const std::string& name = "matvec") {
  return harness::BufferLab(name, name + "(A, B, C, {n})")
      .input("B", harness::n_by_n, fill)
      .input("C", harness::n_elements, fill)
      .output("A", harness::n_elements)
      .call(
          [launcher](const harness::DeviceArgs& a) { launcher(a.output, a.in(0), a.in(1), a.n()); })
      .reference([fill](const harness::CaseData& data) {
        auto expected = harness::expected_product(product_of(data, fill));
        return harness::Expected{std::move(expected.c), std::move(expected.tolerance)};
      })
      .device_reference([fill](const harness::DeviceArgs& a, float* expected, float* tolerance) {
        return matvec_on_device(a, expected, tolerance, fill);
      })
      .label([fill](const harness::CaseSize& size) {
        const int n = static_cast<int>(size.n());
        return fmt::format("{} {}", harness::fill_name(fill), MatmulShape{n, n, 1}.label());
      })
      .max_dimension(kLargestN)
      .product([](const harness::CaseData& data) {
        const int n = static_cast<int>(data.size.n());
        return std::optional(harness::ProductInputs{data.inputs[0].floats(),
                                                    data.inputs[1].floats(), n, n, 1, "B", "C"});
      });
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

}  // namespace

LAB_CHECK(Matvec, Integers) { harness::check_correctness(check, matvec_lab(Fill::integers)); }

LAB_CHECK(Matvec, Reals) { harness::check_correctness(check, matvec_lab(Fill::reals)); }

LAB_CHECK(Matvec, Large) { harness::check_correctness(check, matvec_lab(Fill::integers)); }

LAB_CHECK(Matvec, Examples) {
  for (auto answer : known_vector_answers()) {
    // Renumbered at random each run, so that no kernel can carry the published answers.
    harness::relabel(answer.problem, answer.expected, check.seed_for(answer.problem.name));
    const harness::CaseSize size{answer.problem.shape.m, 1, false};
    harness::check_case(check, matvec_lab(Fill::integers), answer.problem.name,
                        {size, {answer.problem.a, answer.problem.b}}, {answer.expected});
  }
}

LAB_CHECK(Matvec, Threads) {
  const long long n = check.spec().count("n", kLargestN);
  harness::check_one_thread_per_element(check, matvec_lab(Fill::integers),
                                        {fmt::format("{} would be one per element of B", n * n)});
}

LAB_CHECK(Matvec, Speed) { harness::check_speed(check, matvec_lab(Fill::integers)); }

// ---- bonus (optional, extra points): matvec_fast in bonus.cu --------------------------------

LAB_CHECK(MatvecFast, Integers) {
  const auto lab = matvec_lab(Fill::integers, matvec_fast, "matvec_fast");
  if (!harness::bonus_attempted(check, lab, LAB_STUDENT_DEFINES(matvec_fast))) return;
  harness::check_correctness(check, lab);
}

LAB_CHECK(MatvecFast, Speed) {
  const auto lab = matvec_lab(Fill::integers, matvec_fast, "matvec_fast");
  if (!harness::bonus_attempted(check, lab, LAB_STUDENT_DEFINES(matvec_fast))) return;
  harness::check_speed(check, lab);
}
