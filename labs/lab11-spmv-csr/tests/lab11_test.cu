// Lab 11's graded checks, one per entry of ../spec.json (points, sizes, thresholds): the harness's
// checks of a buffers-in, buffer-out lab (harness/buffer_checks.hpp) with the case's CSR arrays
// made together by the lab's case generator (harness/sparse.hpp: skewed rows, empty rows).
#include <vector>

#include "harness/buffer_checks.hpp"
#include "harness/random.hpp"
#include "harness/sparse.hpp"
#include "lab11.h"

namespace {

using harness::CaseData;
using harness::Element;
using harness::Fill;

// spmv_csr(num_rows, data, col_index, row_ptr, x, y): exact on integers, within each row's
// summation bound on reals; a wrong y is diagnosed as a CSR kernel's mistakes.
harness::BufferLab spmv_lab(Fill fill) {
  return harness::BufferLab("spmv_csr", "spmv_csr({rows}, data, col_index, row_ptr, x, y)")
      .input("data", Element::float32)
      .input("col_index", Element::int32)
      .input("row_ptr", Element::int32)
      .input("x", Element::float32)
      .output("y", harness::n_elements)
      .generate([fill](const harness::CaseSize& size, std::uint64_t seed) {
        const auto a = harness::skewed_csr(size.rows, size.cols, seed, fill);
        const auto x_seed = harness::input_seed(seed, 3);
        return harness::spmv_case(a, fill == Fill::integers
                                         ? harness::random_integer_matrix(size.cols, 1, x_seed)
                                         : harness::random_real_matrix(size.cols, 1, x_seed));
      })
      .call([](const harness::DeviceArgs& a) {
        spmv_csr(a.rows(), a.in(0), a.in<int>(1), a.in<int>(2), a.in(3), a.output);
      })
      .reference([fill](const CaseData& d) {
        return harness::spmv_expected(harness::csr_of_spmv_case(d), d.inputs[3].floats(), fill);
      })
      .diagnose(
          [](const CaseData& d, const harness::Expected& expected, const std::vector<float>& got) {
            return harness::diagnose_spmv(harness::csr_of_spmv_case(d), expected, got);
          });
}

// The handout's worked example (5 x 4, rows 1 and 4 empty), its rows in a new order every run.
void check_worked_example(harness::Check& check) {
  const auto [a, y] = harness::shuffled_example(
      {{3, 0, 1, 0}, {0, 0, 0, 0}, {0, 2, 4, 1}, {1, 0, 0, 1}, {0, 0, 0, 0}}, {6, 0, 20, 5, 0},
      check.seed_for("order"));
  harness::check_case(check, spmv_lab(Fill::integers), "worked example 5x4",
                      harness::spmv_case(a, {1, 2, 3, 4}), {y});
}

}  // namespace

LAB_CHECK(SpmvCsr, Example) { check_worked_example(check); }

LAB_CHECK(SpmvCsr, Integers) { harness::check_correctness(check, spmv_lab(Fill::integers)); }

LAB_CHECK(SpmvCsr, Reals) { harness::check_correctness(check, spmv_lab(Fill::reals)); }

LAB_CHECK(SpmvCsr, OneThreadPerRow) {
  harness::check_one_thread_per_element(check, spmv_lab(Fill::integers),
                                        {"one thread per row of A, not per nonzero"});
}

LAB_CHECK(SpmvCsr, Speed) { harness::check_speed(check, spmv_lab(Fill::integers)); }
