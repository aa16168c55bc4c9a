#include "harness/sparse.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "harness/random.hpp"

namespace harness {
namespace {

// Row lengths in a repeating pattern: two empty rows in sixteen, most short, and every 101st row
// long. The pattern's average is about 12 nonzeros a row.
long long pattern_length(long long row, long long cols) {
  static constexpr int kLengths[16] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 2, 1, 0, 5, 3};
  const long long length = row % 101 == 100 ? 512 : kLengths[row % 16];
  return std::min(length, cols);
}

// `count` distinct columns of [0, cols), increasing.
void draw_columns(long long count, long long cols, std::mt19937_64& engine,
                  std::vector<std::int32_t>& out) {
  const auto first = out.size();
  std::uniform_int_distribution<long long> column(0, cols - 1);
  for (long long i = 0; i < count; ++i) out.push_back(static_cast<std::int32_t>(column(engine)));
  const auto begin = out.begin() + static_cast<std::ptrdiff_t>(first);
  std::sort(begin, out.end());
  // Strictly increasing, then back inside [0, cols) from the end (count <= cols).
  for (auto it = begin + 1; it < out.end(); ++it) *it = std::max(*it, *(it - 1) + 1);
  std::int32_t limit = static_cast<std::int32_t>(cols);
  for (auto it = out.end(); it != begin; --it) {
    *(it - 1) = std::min(*(it - 1), --limit);
  }
}

bool close(float got, float expected, const Expected& e, long long row) {
  if (!std::isfinite(got)) return false;
  if (e.tolerance.empty()) return got == expected;
  return std::fabs(static_cast<double>(got) - expected) <= e.tolerance[row];
}

}  // namespace

CsrMatrix skewed_csr(long long rows, long long cols, std::uint64_t seed, Fill fill) {
  CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  std::vector<long long> lengths(static_cast<std::size_t>(rows));
  for (long long r = 0; r < rows; ++r) lengths[r] = pattern_length(r, cols);
  std::mt19937_64 engine(seed);
  std::shuffle(lengths.begin(), lengths.end(), engine);
  a.row_ptr.reserve(static_cast<std::size_t>(rows) + 1);
  a.row_ptr.push_back(0);
  for (const long long length : lengths) {
    draw_columns(length, cols, engine, a.col_index);
    a.row_ptr.push_back(static_cast<std::int32_t>(a.col_index.size()));
  }
  const auto nonzeros = static_cast<long long>(a.col_index.size());
  a.data = fill == Fill::integers ? random_integer_matrix(nonzeros, 1, engine())
                                  : random_real_matrix(nonzeros, 1, engine());
  return a;
}

CsrMatrix csr_of_dense(long long rows, long long cols, const std::vector<float>& dense) {
  CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.push_back(0);
  for (long long r = 0; r < rows; ++r) {
    for (long long c = 0; c < cols; ++c) {
      if (dense[r * cols + c] == 0.0f) continue;
      a.data.push_back(dense[r * cols + c]);
      a.col_index.push_back(static_cast<std::int32_t>(c));
    }
    a.row_ptr.push_back(static_cast<std::int32_t>(a.data.size()));
  }
  return a;
}

Expected spmv_expected(const CsrMatrix& a, const std::vector<float>& x, Fill fill) {
  Expected e;
  const bool exact = fill == Fill::integers;
  for (long long r = 0; r < a.rows; ++r) {
    double sum = 0, magnitude = 0;
    for (auto i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) {
      const double term = static_cast<double>(a.data[i]) * x[a.col_index[i]];
      sum += term;
      magnitude += std::fabs(term);
    }
    e.values.push_back(static_cast<float>(sum));
    if (exact) continue;
    const double u = 0x1p-24, k = static_cast<double>(a.row_length(r));
    const double bound = k * u / (1 - k * u) * magnitude + u * std::fabs(sum);
    e.tolerance.push_back(std::nextafter(static_cast<float>(bound), INFINITY));
  }
  return e;
}

std::optional<Diagnosis> diagnose_spmv(const CsrMatrix& a, const Expected& expected,
                                       const std::vector<float>& got) {
  std::vector<long long> wrong;
  for (long long r = 0; r < a.rows; ++r) {
    if (!close(got[r], expected.values[r], expected, r)) wrong.push_back(r);
  }
  if (wrong.empty()) return std::nullopt;
  const auto first = wrong.front();
  const auto at = [&](long long r) {
    return fmt::format("row {} ({} nonzeros): expected {}, got {}", r, a.row_length(r),
                       format_value(expected.values[r]), format_value(got[r]));
  };
  if (std::all_of(wrong.begin(), wrong.end(), [&](long long r) { return a.row_length(r) == 0; })) {
    return make_diagnosis(
        "empty_rows", fmt::format("the {} wrong elements of y are all at rows with no nonzeros, "
                                  "and every other row is right ({})",
                                  wrong.size(), at(first)));
  }
  // The row at the end the shift runs off reads past row_ptr: it has no neighbour to match.
  for (const int shift : {1, -1}) {
    long long neighboured = 0, shifted = 0;
    for (const long long r : wrong) {
      const long long other = r + shift;
      if (other < 0 || other >= a.rows) continue;
      ++neighboured;
      shifted += close(got[r], expected.values[other], expected, other);
    }
    if (neighboured >= 2 && shifted * 10 >= neighboured * 9) {
      return make_diagnosis(
          "row_ptr_off_by_one",
          fmt::format("at {} of the {} wrong rows, y[row] holds row {}'s sum ({})", shifted,
                      wrong.size(), shift > 0 ? "row + 1" : "row - 1", at(first)));
    }
  }
  const bool several =
      std::all_of(wrong.begin(), wrong.end(), [&](long long r) { return a.row_length(r) >= 2; });
  long long singles = 0;
  for (long long r = 0; r < a.rows; ++r) singles += a.row_length(r) == 1;
  if (several && singles > 0) {
    return make_diagnosis(
        "lost_updates",
        fmt::format("the {} rows with one nonzero are right, and the {} wrong rows all have "
                    "several: their sums lost terms ({})",
                    singles, wrong.size(), at(first)));
  }
  return std::nullopt;
}

std::pair<CsrMatrix, std::vector<float>> shuffled_example(
    const std::vector<std::vector<float>>& rows, const std::vector<float>& answers,
    std::uint64_t seed) {
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  std::vector<float> dense, shuffled_answers;
  for (const auto r : order) {
    dense.insert(dense.end(), rows[r].begin(), rows[r].end());
    shuffled_answers.push_back(answers[r]);
  }
  const auto cols = rows.empty() ? 0 : static_cast<long long>(rows.front().size());
  return {csr_of_dense(static_cast<long long>(rows.size()), cols, dense), shuffled_answers};
}

CaseData spmv_case(const CsrMatrix& a, std::vector<float> x) {
  return {{a.rows, a.cols, true}, {a.data, a.col_index, a.row_ptr, std::move(x)}};
}

CsrMatrix csr_of_spmv_case(const CaseData& data) {
  return {data.size.rows, data.size.cols, data.inputs[0].floats(), data.inputs[1].ints(),
          data.inputs[2].ints()};
}

}  // namespace harness
