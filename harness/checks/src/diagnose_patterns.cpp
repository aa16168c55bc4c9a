// The rules that read the shape of the wrong elements, the guard zones, the launch and the
// experiments' re-runs (diagnose_rules.hpp lists them in the order diagnose_case tries them).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "diagnose_rules.hpp"

namespace harness::rules {

// ---- rule: writes outside the buffers ----------------------------------------------------

std::optional<Diagnosis> out_of_bounds(const DiagnosisInput& in) {
  if (in.out_of_bounds.empty()) return std::nullopt;
  const auto& first = in.out_of_bounds.front();
  std::string where;
  if (first.offset < 0) {
    where = fmt::format("{} elements before its start", -first.offset);
  } else if (in.cols > 0) {
    where = fmt::format("element offset {} (as if row {}, col {})", first.offset,
                        first.offset / in.cols, first.offset % in.cols);
  } else {
    where = fmt::format("element offset {}", first.offset);
  }
  return make_diagnosis("out_of_bounds_write",
                        fmt::format("{} outside {}; the first at {}",
                                    plural(static_cast<long long>(in.out_of_bounds.size()),
                                           "write landed", "writes landed"),
                                    first.buffer, where));
}

// ---- rule: a launch that failed ----------------------------------------------------------

std::optional<Diagnosis> failed_launch(const DiagnosisInput& in) {
  if (in.launch_error.empty()) return std::nullopt;
  return diagnose_launch_error(in.launch_error);
}

// ---- rule: nothing written ---------------------------------------------------------------

std::optional<Diagnosis> never_written(const DiagnosisInput& in, const Counts& counts) {
  if (in.got.empty() || counts.nan != static_cast<long long>(in.got.size())) return std::nullopt;
  const std::string all_nan = fmt::format(
      "all {} elements are NaN, the value the output held before the launch", in.got.size());
  if (!in.experiments.output_prefilled) return make_diagnosis("unwritten", all_nan);
  const auto zero_filled = in.experiments.output_prefilled(0.0f);
  if (!zero_filled || zero_filled->size() != in.got.size()) {
    return make_diagnosis("unwritten", all_nan);
  }
  const auto& z = *zero_filled;
  bool all_right = true;
  bool all_zero = true;
  for (std::size_t i = 0; i < z.size(); ++i) {
    all_right = all_right && close(z[i], in.expected[i], in.tolerance, i);
    all_zero = all_zero && z[i] == 0.0f;
  }
  if (all_right) {
    return make_diagnosis("output_not_initialised",
                          all_nan +
                              "; run again with the output set to 0 first, every element "
                              "came out right");
  }
  if (all_zero) {
    return make_diagnosis("unwritten",
                          all_nan + "; run again with the output set to 0 first, it stayed 0");
  }
  return make_diagnosis("nan_everywhere",
                        all_nan + "; with the output set to 0 first it is still wrong");
}

// ---- rules from experiments: run-to-run changes, stale shared memory, outside reads ------

bool all_right(const DiagnosisInput& in, Values out) {
  if (out.size() != in.expected.size()) return false;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!close(out[i], in.expected[i], in.tolerance, i)) return false;
  }
  return true;
}

// The runs on the same buffers (Experiments::shared_prefilled): outputs that differ with the same
// start are a race; outputs that follow the fill are stale shared memory read. Sets `repeats` to
// whether every run gave the same output, when the runs were made.
std::optional<Diagnosis> from_shared_memory(const DiagnosisInput& in,
                                            std::optional<bool>& repeats) {
  if (!in.experiments.shared_prefilled) return std::nullopt;
  const float nan = std::nanf("");
  const auto first = in.experiments.shared_prefilled(nan);
  const auto second = in.experiments.shared_prefilled(nan);
  if (!first || !second) return std::nullopt;
  // Without shared memory there is no shared-memory race and nothing stale in it: the runs still
  // say whether the output repeats, but the words are left to the rules that can see the cause.
  const bool shared = in.uses_shared_memory.value_or(true);
  if (!same_output(*first, *second)) {
    repeats = false;
    if (!shared) return std::nullopt;
    return make_diagnosis("race",
                          "two runs on the same inputs and the same buffers, each starting from "
                          "the same shared memory, gave different outputs");
  }
  const auto zeros = in.experiments.shared_prefilled(0.0f);
  if (!zeros) return std::nullopt;
  if (!same_output(*first, *zeros)) {
    repeats = false;
    if (!shared) return std::nullopt;
    return make_diagnosis("uninitialised_shared",
                          "the output changed when shared memory held NaN instead of 0 before "
                          "the launch (a correct kernel never sees what was there)");
  }
  // Wrong once, then right three times: the failure did not repeat.
  if (all_right(in, *first)) {
    repeats = false;
    if (!shared) return std::nullopt;
    return make_diagnosis("race",
                          "the case was wrong, but three more runs on the same inputs were right: "
                          "the result changes from run to run");
  }
  repeats = true;
  return std::nullopt;
}

std::optional<Diagnosis> from_outside_reads(const DiagnosisInput& in) {
  if (!in.experiments.input_guards_nan) return std::nullopt;
  const auto out = in.experiments.input_guards_nan();
  if (!out || same_output(*out, in.got)) return std::nullopt;
  long long changed = 0;
  for (std::size_t i = 0; i < out->size() && i < in.got.size(); ++i) {
    if (!same_bits((*out)[i], in.got[i]) && !(std::isnan((*out)[i]) && std::isnan(in.got[i]))) {
      ++changed;
    }
  }
  return make_diagnosis(
      "reads_outside_inputs",
      fmt::format("with NaN in the memory just outside the inputs, {} changed: the kernel reads "
                  "there",
                  plural(changed, "output element", "output elements")));
}

// ---- rule: every element nearly right: the arithmetic is less precise than float32 -------

// Reals only (integer checks are exact). Each wrong element is within 2^-9 of the output's scale
// (its largest magnitude): far more than float32 rounding allows, far less than a lost term or a
// wrong index gives. TF32 tensor cores, half precision or a fast approximate intrinsic do that.
std::optional<Diagnosis> reduced_precision(const DiagnosisInput& in, const Counts& counts) {
  if (in.tolerance.empty() || counts.nan > 0 || counts.wrong == 0) return std::nullopt;
  double scale = 0;
  for (float v : in.expected) scale = std::max(scale, std::fabs(static_cast<double>(v)));
  if (scale == 0) return std::nullopt;
  double worst = 0;
  for (std::size_t i = 0; i < in.got.size(); ++i) {
    if (is_right(in, i)) continue;
    const double error = std::fabs(static_cast<double>(in.got[i]) - in.expected[i]);
    if (!std::isfinite(error) || error > scale / 512) return std::nullopt;
    worst = std::max(worst, error);
  }
  return make_diagnosis(
      "reduced_precision",
      fmt::format("{} wrong, each close to the right value (at most {:.2g} off, {:.2g} of the "
                  "largest element) but beyond what float32 rounding allows",
                  plural(counts.wrong, "element", "elements"), worst, worst / scale));
}

// ---- rule: the grid leaves the last rows or columns without threads ----------------------

std::optional<Diagnosis> uncovered_border(const DiagnosisInput& in, const Counts& counts) {
  if (counts.wrong == 0 || counts.nan != counts.wrong) return std::nullopt;
  long long last_row = -1;
  long long last_col = -1;
  for (long long r = 0; r < in.rows; ++r) {
    for (long long c = 0; c < in.cols; ++c) {
      if (!std::isnan(in.got[static_cast<std::size_t>(r * in.cols + c)])) {
        last_row = std::max(last_row, r);
        last_col = std::max(last_col, c);
      }
    }
  }
  const long long r0 = last_row + 1;  // rows [0, r0) and columns [0, c0) were written
  const long long c0 = last_col + 1;
  if (r0 == 0 || (r0 == in.rows && c0 == in.cols)) return std::nullopt;
  // A 2D grid with a thread for every element is not too small: its threads wrote elsewhere.
  if (in.launch && (in.launch->block[1] > 1 || in.launch->grid[1] > 1) &&
      1LL * in.launch->grid[0] * in.launch->block[0] >= in.cols &&
      1LL * in.launch->grid[1] * in.launch->block[1] >= in.rows) {
    return std::nullopt;
  }
  for (long long r = 0; r < in.rows; ++r) {
    for (long long c = 0; c < in.cols; ++c) {
      const auto i = static_cast<std::size_t>(r * in.cols + c);
      const bool covered = r < r0 && c < c0;
      if (covered != is_right(in, i) || covered == std::isnan(in.got[i])) return std::nullopt;
    }
  }
  std::string evidence = fmt::format(
      "only the top-left {}x{} elements of the {}x{} output were written; the rest "
      "got no thread",
      r0, c0, in.rows, in.cols);
  if (in.launch) {
    const auto& l = *in.launch;
    evidence += fmt::format(" (the grid ({}, {}) of ({}, {}) blocks covers {} columns and {} rows)",
                            l.grid[0], l.grid[1], l.block[0], l.block[1],
                            1LL * l.grid[0] * l.block[0], 1LL * l.grid[1] * l.block[1]);
  }
  return make_diagnosis("grid_too_small", evidence);
}

// ---- rule: the output is the expected matrix transposed ----------------------------------

std::optional<Diagnosis> transposed(const DiagnosisInput& in) {
  if (in.rows <= 1 || in.cols <= 1) return std::nullopt;
  // The transpose laid out as a cols x rows matrix: element (i, j) of the answer at j * rows + i.
  for (long long i = 0; i < in.rows; ++i) {
    for (long long j = 0; j < in.cols; ++j) {
      const auto want = static_cast<std::size_t>(i * in.cols + j);
      const auto at = static_cast<std::size_t>(j * in.rows + i);
      if (!close(in.got[at], in.expected[want], in.tolerance, want)) return std::nullopt;
    }
  }
  const std::string product =
      in.product ? fmt::format("the result is ({}·{})ᵀ: ", in.product->first, in.product->second)
                 : std::string();
  return make_diagnosis(
      "transposed_result",
      fmt::format("{}every element (i, j) of the answer sits at (j, i) of the output{}", product,
                  in.rows == in.cols ? "" : ", laid out as a cols x rows matrix"));
}

// ---- rule: running sums along rows or columns ----------------------------------------------

std::optional<Diagnosis> running_sums(const DiagnosisInput& in) {
  const auto along = [&](bool rows_outer) {
    const long long outer = rows_outer ? in.rows : in.cols;
    const long long inner = rows_outer ? in.cols : in.rows;
    if (inner < 2) return false;
    for (long long o = 0; o < outer; ++o) {
      double sum = 0;
      double tolerance = 0;
      for (long long x = 0; x < inner; ++x) {
        const auto i = static_cast<std::size_t>(rows_outer ? o * in.cols + x : x * in.cols + o);
        sum += in.expected[i];
        if (!in.tolerance.empty()) tolerance += in.tolerance[i];
        const float got = in.got[i];
        const bool match =
            in.tolerance.empty()
                ? std::isfinite(got) && got == static_cast<float>(sum)
                : std::isfinite(got) && std::fabs(got - sum) <= tolerance + 1e-5 * std::fabs(sum);
        if (!match) return false;
      }
    }
    return true;
  };
  if (along(true)) {
    return make_diagnosis("accumulator_not_reset",
                          "each element equals the sum of the right answers from the start of its "
                          "row up to it");
  }
  if (along(false)) {
    return make_diagnosis("accumulator_not_reset",
                          "each element equals the sum of the right answers from the top of its "
                          "column down to it");
  }
  return std::nullopt;
}

// ---- coarse patterns over the tile grid --------------------------------------------------

std::optional<Diagnosis> tile_patterns(const DiagnosisInput& in, const Counts& counts) {
  for (const int t : tile_candidates(in.launch)) {
    if (t <= 0 || (in.rows <= t && in.cols <= t)) continue;
    const long long full_rows = (in.rows / t) * t;
    const long long full_cols = (in.cols / t) * t;
    // Only the first tile right, or only the first row of blocks right.
    for (const bool block_row : {false, true}) {
      const long long right_rows = std::min<long long>(t, in.rows);
      const long long right_cols = block_row ? in.cols : std::min<long long>(t, in.cols);
      if (right_rows * right_cols >= static_cast<long long>(in.got.size())) continue;
      long long inside_wrong = 0;
      long long outside_wrong = 0;
      for (long long r = 0; r < in.rows; ++r) {
        for (long long c = 0; c < in.cols; ++c) {
          const bool inside = r < right_rows && c < right_cols;
          const bool wrong = !is_right(in, static_cast<std::size_t>(r * in.cols + c));
          (inside ? inside_wrong : outside_wrong) += wrong ? 1 : 0;
        }
      }
      const long long outside = static_cast<long long>(in.got.size()) - right_rows * right_cols;
      if (inside_wrong == 0 && outside_wrong * 100 >= outside * 95) {
        return make_diagnosis(
            "only_first_tile",
            fmt::format("the {} ({} rows x {} columns) is right and {} of the {} other elements "
                        "are wrong",
                        block_row ? "first row of blocks" : "first tile", right_rows, right_cols,
                        outside_wrong, outside));
      }
    }
    // Only the border past the last full tile wrong.
    if (full_rows == in.rows && full_cols == in.cols) continue;
    bool border_only = true;
    for (long long r = 0; r < full_rows && border_only; ++r) {
      for (long long c = 0; c < full_cols; ++c) {
        if (!is_right(in, static_cast<std::size_t>(r * in.cols + c))) {
          border_only = false;
          break;
        }
      }
    }
    if (border_only && counts.wrong > 0) {
      return make_diagnosis(
          "border_wrong",
          fmt::format("every wrong element lies past the last full {}x{} tile (rows from {} or "
                      "columns from {})",
                      t, t, full_rows, full_cols));
    }
  }
  return std::nullopt;
}

std::optional<Diagnosis> garbage(const DiagnosisInput& in, const Counts& counts) {
  if (in.got.empty()) return std::nullopt;
  long long wild = counts.nan;
  for (std::size_t i = 0; i < in.got.size(); ++i) {
    const float g = in.got[i];
    if (std::isinf(g) ||
        (std::isfinite(g) && std::fabs(g) > 1e6f * (1 + std::fabs(in.expected[i])))) {
      ++wild;
    }
  }
  if (wild * 2 < static_cast<long long>(in.got.size())) return std::nullopt;
  return make_diagnosis(
      "nan_everywhere",
      fmt::format("{} of {} elements are NaN, infinite or far out of range", wild, in.got.size()));
}

}  // namespace harness::rules
