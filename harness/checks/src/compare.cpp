#include "harness/compare.hpp"

#include "harness/digest_term.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace harness {
namespace {

ErrorMap make_empty_map(long long rows, long long cols, int max_cells) {
  ErrorMap map;
  map.rows = rows;
  map.cols = cols;
  map.cell_rows = (rows + max_cells - 1) / max_cells;
  map.cell_cols = (cols + max_cells - 1) / max_cells;
  map.grid_rows = static_cast<int>((rows + map.cell_rows - 1) / map.cell_rows);
  map.grid_cols = static_cast<int>((cols + map.cell_cols - 1) / map.cell_cols);
  map.wrong_fraction.assign(static_cast<size_t>(map.grid_rows) * map.grid_cols, 0.0f);
  return map;
}

// Each cell's share of wrong elements, from their counts.
void fill_fractions(ErrorMap& map, const std::vector<long long>& wrong_per_cell, long long rows,
                    long long cols) {
  for (int r = 0; r < map.grid_rows; ++r) {
    for (int c = 0; c < map.grid_cols; ++c) {
      const long long cell_height = std::min(map.cell_rows, rows - r * map.cell_rows);
      const long long cell_width = std::min(map.cell_cols, cols - c * map.cell_cols);
      const size_t k = static_cast<size_t>(r) * map.grid_cols + c;
      map.wrong_fraction[k] =
          static_cast<float>(wrong_per_cell[k]) / static_cast<float>(cell_height * cell_width);
    }
  }
}

}  // namespace

std::string output_digest(const float* values, std::size_t count) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &values[i], sizeof bits);
    sum += digest_term(i, bits);
  }
  return format_digest(sum);
}

std::string format_digest(std::uint64_t sum) { return fmt::format("{:016x}", sum); }

CaseResult compare_matrices(const std::vector<float>& expected, const std::vector<float>& got,
                            long long rows, long long cols, const std::vector<float>& tolerance,
                            const CompareOptions& options) {
  const auto total = static_cast<size_t>(rows * cols);
  if (expected.size() != total || got.size() != total ||
      (!tolerance.empty() && tolerance.size() != total)) {
    throw std::invalid_argument(fmt::format(
        "compare_matrices: sizes differ (expected {}, got {}, tolerance {}, rows x cols {})",
        expected.size(), got.size(), tolerance.size(), total));
  }
  CaseResult result;
  result.total = static_cast<long long>(total);
  ErrorMap map = make_empty_map(rows, cols, std::max(1, options.max_map_cells));
  std::vector<long long> wrong_per_cell(map.wrong_fraction.size(), 0);

  for (long long row = 0; row < rows; ++row) {
    for (long long col = 0; col < cols; ++col) {
      const size_t i = static_cast<size_t>(row * cols + col);
      const float want = expected[i];
      const float have = got[i];
      bool wrong;
      if (!std::isfinite(have)) {
        wrong = true;  // NaN (never written) and Inf never pass
        if (std::isnan(have)) ++result.nan_count;
      } else if (tolerance.empty()) {
        wrong = have != want;
      } else {
        const double error = std::fabs(static_cast<double>(have) - want);
        result.max_abs_error = std::max(result.max_abs_error, error);
        wrong = !(error <= tolerance[i]);
      }
      if (tolerance.empty() && std::isfinite(have)) {
        result.max_abs_error =
            std::max(result.max_abs_error, std::fabs(static_cast<double>(have) - want));
      }
      if (!wrong) continue;
      ++result.mismatches;
      ++wrong_per_cell[static_cast<size_t>(row / map.cell_rows) * map.grid_cols +
                       static_cast<size_t>(col / map.cell_cols)];
      if (static_cast<int>(result.first_mismatches.size()) < options.max_listed) {
        result.first_mismatches.push_back({row, col, format_value(want), format_value(have)});
      }
    }
  }
  if (!tolerance.empty()) {
    result.tolerance = *std::max_element(tolerance.begin(), tolerance.end());
  } else {
    result.output_digest = output_digest(got.data(), got.size());
  }
  if (result.mismatches > 0) {
    fill_fractions(map, wrong_per_cell, rows, cols);
    result.error_map = std::move(map);
    result.verdict = Verdict::fail;
    result.reason = describe_mismatches(result);
  } else {
    result.verdict = Verdict::pass;
  }
  return result;
}

std::string describe_mismatches(const CaseResult& result) {
  if (result.mismatches == 0) return "every element is right";
  std::string text = fmt::format("{} of {} elements wrong", result.mismatches, result.total);
  if (result.nan_count == result.mismatches) {
    text += " (all of them still NaN: never written)";
  } else if (result.nan_count > 0) {
    text += fmt::format(" ({} still NaN: never written)", result.nan_count);
  }
  if (!result.first_mismatches.empty()) {
    const auto& first = result.first_mismatches.front();
    text += fmt::format("; first at (row {}, col {}): expected {}, got {}", first.row, first.col,
                        first.expected, first.got);
  }
  return text;
}

}  // namespace harness
