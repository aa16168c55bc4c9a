// Sparse matrices in CSR for a lab's case generator (harness/buffer_lab.hpp): a matrix whose rows
// have skewed lengths and some are empty, the product y = A·x on the CPU, and the classic
// mistakes of a CSR kernel told from a wrong y. Lab 11 (SpMV) is written with it.
//
// CSR (compressed sparse row) keeps a rows x cols matrix's nonzeros row after row: `data` the
// values, `col_index` the column of each, and `row_ptr` (rows + 1 entries) where each row starts:
// row r's nonzeros are data[row_ptr[r]] .. data[row_ptr[r + 1] - 1], and row_ptr[rows] is their
// count. An empty row has row_ptr[r] == row_ptr[r + 1].
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "harness/buffer_lab.hpp"

namespace harness {

struct CsrMatrix {
  long long rows = 0;
  long long cols = 0;
  std::vector<float> data;
  std::vector<std::int32_t> col_index;
  std::vector<std::int32_t> row_ptr;  // rows + 1 entries, from 0 up to data.size()
  long long row_length(long long row) const { return row_ptr[row + 1] - row_ptr[row]; }
};

// A rows x cols matrix with skewed row lengths: about one row in eight empty, most short, a few
// long (up to 512 nonzeros, never more than cols), each row's columns distinct and increasing,
// the values drawn as `fill` says (integers keep every row's sum exact in float32). The lengths
// are a function of the size alone, shuffled over the rows by `seed`: every seed gives the same
// number of nonzeros (a speed check's rounds reuse the buffers).
CsrMatrix skewed_csr(long long rows, long long cols, std::uint64_t seed, Fill fill);

// A row-major dense matrix in CSR (its zeros left out): the handouts' worked examples.
CsrMatrix csr_of_dense(long long rows, long long cols, const std::vector<float>& dense);

// A worked example's dense rows and their answers (y = A·x), the rows in an order drawn from
// `seed` (a kernel that returns the handout's answer from memory fails), as CSR and answers.
std::pair<CsrMatrix, std::vector<float>> shuffled_example(
    const std::vector<std::vector<float>>& rows, const std::vector<float>& answers,
    std::uint64_t seed);

// A case of y = A·x with its inputs in the order of an SpMV kernel's parameters (data,
// col_index, row_ptr, x), sized rows x cols; and the matrix back from such a case.
CaseData spmv_case(const CsrMatrix& a, std::vector<float> x);
CsrMatrix csr_of_spmv_case(const CaseData& data);

// y = A·x on the CPU: exact for integer values (every sum below 2^24), else each row within
// its summation bound gamma_k · sum |a_ij x_j| (k its length), in any order of the additions.
Expected spmv_expected(const CsrMatrix& a, const std::vector<float>& x, Fill fill);

// The mistake that turns the right y into `got`, if it is one of a CSR kernel's: a row's range
// read one entry off (y[r] holds row r + 1's sum), empty rows left unwritten, rows with several
// nonzeros that lost terms (threads adding into one y[row] without atomics).
std::optional<Diagnosis> diagnose_spmv(const CsrMatrix& a, const Expected& expected,
                                       const std::vector<float>& got);

}  // namespace harness
