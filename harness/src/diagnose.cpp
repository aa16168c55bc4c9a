// The rules behind diagnose_case, in the order they are tried: what the guard zones and the launch
// say, then experiments (a re-run changes the answer: a race or stale shared memory), then the
// shape of the wrong elements (never written, transposed, running sums), then what the product
// would be under each common mistake (an operand read transposed or from the wrong matrix, a
// tiling mistake, integer truncation), then coarse patterns over the tile grid.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "harness/diagnose.hpp"

namespace harness {
namespace {

using Values = Floats;

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_output(Values a, Values b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!same_bits(a[i], b[i]) && !(std::isnan(a[i]) && std::isnan(b[i]))) return false;
  }
  return true;
}

// Does `value` (what the kernel wrote) equal `target` (a value some rule predicts) at element i?
// Exact for exact comparisons; within the element's tolerance (and a hair for the rounding of the
// prediction itself) otherwise.
bool close(float value, double target, Values tolerance, std::size_t i) {
  if (!std::isfinite(value) || !std::isfinite(target)) return false;
  if (tolerance.empty()) return value == static_cast<float>(target);
  return std::fabs(static_cast<double>(value) - target) <=
         static_cast<double>(tolerance[i]) + 1e-6 * std::fabs(target);
}

bool is_right(const DiagnosisInput& in, std::size_t i) {
  return close(in.got[i], in.expected[i], in.tolerance, i);
}

struct Counts {
  long long wrong = 0;
  long long nan = 0;
};

Counts count(const DiagnosisInput& in) {
  Counts c;
  for (std::size_t i = 0; i < in.got.size(); ++i) {
    if (std::isnan(in.got[i])) ++c.nan;
    if (!is_right(in, i)) ++c.wrong;
  }
  return c;
}

std::string plural(long long n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

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
  if (!same_output(*first, *second)) {
    repeats = false;
    return make_diagnosis("race",
                          "two runs on the same inputs and the same buffers, each starting from "
                          "the same shared memory, gave different outputs");
  }
  const auto zeros = in.experiments.shared_prefilled(0.0f);
  if (!zeros) return std::nullopt;
  if (!same_output(*first, *zeros)) {
    repeats = false;
    return make_diagnosis("uninitialised_shared",
                          "the output changed when shared memory held NaN instead of 0 before "
                          "the launch (a correct kernel never sees what was there)");
  }
  // Wrong once, then right three times: the failure did not repeat.
  if (all_right(in, *first)) {
    repeats = false;
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

// ---- rules from the product's inputs: what each common mistake would compute -------------

struct Hypothesis {
  std::string id;
  std::string evidence;
  std::function<std::optional<double>(long long row, long long col)> predict;
  // The prediction is a real sum that the kernel truncates to an int: its float sum may lie on
  // the other side of an integer than the exact one, anywhere within the tolerance.
  bool truncated = false;
};

double a_at(const ProductInputs& p, long long row, long long col) {
  return p.a[static_cast<std::size_t>(row * p.k + col)];
}

double b_at(const ProductInputs& p, long long row, long long col) {
  return p.b[static_cast<std::size_t>(row * p.n + col)];
}

double partial(const ProductInputs& p, long long row, long long col, long long from, long long to) {
  double sum = 0;
  for (long long l = from; l < to; ++l) sum += a_at(p, row, l) * b_at(p, l, col);
  return sum;
}

// Is `value` (an output element) what truncating `sum` to an int gives, for some sum within the
// element's tolerance of it?
bool truncates_to(float value, double sum, Values tolerance, std::size_t i) {
  if (!std::isfinite(value) || !std::isfinite(sum) || value != std::trunc(value)) return false;
  const double slack =
      tolerance.empty() ? 0.0 : static_cast<double>(tolerance[i]) + 1e-6 * std::fabs(sum);
  return value >= std::trunc(sum - slack) && value <= std::trunc(sum + slack);
}

// The sum over l < k of term(l): each operand hypothesis is the inner product read another way.
template <typename Term>
double inner_product(const ProductInputs& p, Term term) {
  double sum = 0;
  for (long long l = 0; l < p.k; ++l) sum += term(l);
  return sum;
}

// An operand read transposed, or loaded from the other matrix: Mᵀ·N, M·Nᵀ, M·M, N·N.
void operand_hypotheses(const ProductInputs& p, std::vector<Hypothesis>& out) {
  const std::string& f = p.first;
  const std::string& s = p.second;
  if (p.m == p.k) {
    out.push_back({"swapped_index",
                   fmt::format("the result is {0}ᵀ·{1}: {0} is read transposed (its row and column "
                               "swapped in the load)",
                               f, s),
                   [&p](long long r, long long c) -> std::optional<double> {
                     return inner_product(
                         p, [&](long long l) { return a_at(p, l, r) * b_at(p, l, c); });
                   }});
  }
  if (p.k == p.n) {
    out.push_back({"swapped_index",
                   fmt::format("the result is {0}·{1}ᵀ: {1} is read transposed (its row and column "
                               "swapped in the load)",
                               f, s),
                   [&p](long long r, long long c) -> std::optional<double> {
                     return inner_product(
                         p, [&](long long l) { return a_at(p, r, l) * b_at(p, c, l); });
                   }});
  }
  // One matrix in both places: only square products have M·M and N·N.
  if (p.m == p.k && p.k == p.n) {
    out.push_back({"wrong_operand",
                   fmt::format("the result is {0}·{0}: the second operand is loaded from {0}, "
                               "not from {1}",
                               f, s),
                   [&p](long long r, long long c) -> std::optional<double> {
                     return inner_product(
                         p, [&](long long l) { return a_at(p, r, l) * a_at(p, l, c); });
                   }});
    out.push_back({"wrong_operand",
                   fmt::format("the result is {1}·{1}: the first operand is loaded from {1}, "
                               "not from {0}",
                               f, s),
                   [&p](long long r, long long c) -> std::optional<double> {
                     return inner_product(
                         p, [&](long long l) { return b_at(p, r, l) * b_at(p, l, c); });
                   }});
  }
}

// What each tiling mistake computes with tiles of t (each phase: t terms of every inner product).
void tile_hypotheses(const ProductInputs& p, int t, std::vector<Hypothesis>& out) {
  const long long k = p.k;
  const long long phases = (k + t - 1) / t;
  // `Mds[ty][ph] * Nds[ph][tx]` inside `for k`: each phase adds t times the one product at
  // column (and row) ph of its tiles, which is term ph * t + ph of the inner product; past
  // TILE_WIDTH phases the kernel reads outside its tiles, which no prediction can follow.
  if (phases <= t) {
    const std::string& f = p.first;
    const std::string& s = p.second;
    out.push_back(
        {"phase_as_inner_index",
         fmt::format("the result is what the phase in place of k in the inner product gives: "
                     "{} (tiles of {}: tile[ty][ph] * tile[ph][tx] where tile[ty][k] * "
                     "tile[k][tx] belongs)",
                     phases == 1
                         ? fmt::format("its one phase adds {} times the one product "
                                       "{}[row][0]·{}[0][col]",
                                       t, f, s)
                         : fmt::format("each of the {} phases adds {} times the one product "
                                       "{}[row][ph * {}]·{}[ph * {}][col]",
                                       phases, t, f, t + 1, s, t + 1),
                     t),
         [&p, t, phases](long long r, long long c) -> std::optional<double> {
           double sum = 0;
           for (long long ph = 0; ph < phases; ++ph) {
             const long long l = ph * t + ph;
             if (l < p.k) sum += static_cast<double>(t) * a_at(p, r, l) * b_at(p, l, c);
           }
           return sum;
         }});
  }
  if (k <= t) {
    // One tile holds the whole inner dimension: only the dropped partial tile can go wrong.
    if (k < t) {
      out.push_back({"last_tile_skipped",
                     fmt::format("every element is 0: with k = {} below the tile ({}), "
                                 "k / {} phases rounded down is none",
                                 k, t, t),
                     [](long long, long long) -> std::optional<double> { return 0.0; }});
    }
    return;
  }
  const long long last_start = ((k - 1) / t) * t;  // where the last (maybe partial) tile starts
  out.push_back({"first_tile_only",
                 fmt::format("every wrong element equals the sum of only the first {} terms of "
                             "its inner product (one tile of {})",
                             t, t),
                 [&p, t](long long r, long long c) -> std::optional<double> {
                   return partial(p, r, c, 0, t);
                 }});
  out.push_back({"accumulator_reset_in_loop",
                 fmt::format("every wrong element equals the sum of only the last tile's terms "
                             "(terms {} to {})",
                             last_start, k - 1),
                 [&p, last_start](long long r, long long c) -> std::optional<double> {
                   return partial(p, r, c, last_start, p.k);
                 }});
  out.push_back({"last_tile_skipped",
                 fmt::format("every wrong element equals its inner product without the last "
                             "{} terms (the last tile of {})",
                             k - last_start, t),
                 [&p, last_start](long long r, long long c) -> std::optional<double> {
                   return partial(p, r, c, 0, last_start);
                 }});
  if (k % t != 0) {
    // The last tile is partial; its entries past k still hold the previous phase's values.
    const long long previous = last_start - t;
    const long long stale_from = k % t;
    out.push_back(
        {"tile_not_zero_filled",
         fmt::format("every wrong element equals the right sum plus the previous tile's terms "
                     "{} to {} a second time (k = {}, tiles of {})",
                     previous + stale_from, previous + t - 1, k, t),
         [&p, previous, stale_from, t](long long r, long long c) -> std::optional<double> {
           return partial(p, r, c, 0, p.k) + partial(p, r, c, previous + stale_from, previous + t);
         }});
  }
  // The phase missing from the loads' indices: every phase loads the first tiles again (of both
  // operands, or of one while the other's move on).
  const std::string& f = p.first;
  const std::string& s = p.second;
  out.push_back({"phase_repeated",
                 fmt::format("the result is {0} times the first tile's terms: each of the {0} "
                             "phases loads the first tiles of {1} and {2} again (ph is missing "
                             "from both loads' indices; tiles of {3})",
                             phases, f, s, t),
                 [&p, t, phases](long long r, long long c) -> std::optional<double> {
                   return static_cast<double>(phases) * partial(p, r, c, 0, t);
                 }});
  out.push_back({"phase_repeated",
                 fmt::format("the result is what loading {0}'s first tile in every phase gives: "
                             "{1}'s tiles move on with the phase, {0}'s do not (ph is missing "
                             "from the index of {0}'s load; tiles of {2})",
                             f, s, t),
                 [&p, t](long long r, long long c) -> std::optional<double> {
                   double sum = 0;
                   for (long long l = 0; l < p.k; ++l) sum += a_at(p, r, l % t) * b_at(p, l, c);
                   return sum;
                 }});
  out.push_back({"phase_repeated",
                 fmt::format("the result is what loading {1}'s first tile in every phase gives: "
                             "{0}'s tiles move on with the phase, {1}'s do not (ph is missing "
                             "from the index of {1}'s load; tiles of {2})",
                             f, s, t),
                 [&p, t](long long r, long long c) -> std::optional<double> {
                   double sum = 0;
                   for (long long l = 0; l < p.k; ++l) sum += a_at(p, r, l) * b_at(p, l % t, c);
                   return sum;
                 }});
}

// An int where the values are floats. On integer-valued inputs each of these is exact (so only
// the real-valued checks fail); on reals each gives its own result.
void truncation_hypotheses(const ProductInputs& p, std::vector<Hypothesis>& out) {
  const auto below_one = [](Values values) {
    return std::all_of(values.begin(), values.end(), [](float v) { return std::fabs(v) < 1.0f; });
  };
  if (below_one(p.a) && below_one(p.b)) {
    // The checks' real inputs: int tiles and an int sum both give 0 everywhere.
    out.push_back({"integer_truncation",
                   "the result is what float → int truncation gives: every element is 0, since "
                   "every input lies in (-1, 1): as an int each input is 0 (int tiles), and so "
                   "is each product added to an int sum",
                   [](long long, long long) -> std::optional<double> { return 0.0; }});
  } else {
    out.push_back({"integer_truncation",
                   "the result is what float → int truncation gives: the product of the inputs "
                   "truncated to int (int tiles, or an int copy of each element)",
                   [&p](long long r, long long c) -> std::optional<double> {
                     double sum = 0;
                     for (long long l = 0; l < p.k; ++l) {
                       sum += std::trunc(a_at(p, r, l)) * std::trunc(b_at(p, l, c));
                     }
                     return sum;
                   }});
    out.push_back({"integer_truncation",
                   "the result is what float → int truncation gives: an int sum, truncated each "
                   "time a product is added to it",
                   [&p](long long r, long long c) -> std::optional<double> {
                     double sum = 0;
                     for (long long l = 0; l < p.k; ++l) {
                       sum = std::trunc(sum + a_at(p, r, l) * b_at(p, l, c));
                     }
                     return sum;
                   }});
  }
  out.push_back(
      {"integer_truncation",
       "the result is what float → int truncation gives: each element is the right sum "
       "with its fraction dropped on the way to the output (an int between the sum and "
       "the store)",
       [&p](long long r, long long c) -> std::optional<double> { return partial(p, r, c, 0, p.k); },
       true});
}

// In order of preference where several fit: operands, then tiles (the recorded block side
// first), then integer truncation.
std::vector<Hypothesis> product_hypotheses(const ProductInputs& p, const std::vector<int>& tiles) {
  std::vector<Hypothesis> out;
  operand_hypotheses(p, out);
  for (const int t : tiles) {
    if (t > 0) tile_hypotheses(p, t, out);
  }
  truncation_hypotheses(p, out);
  return out;
}

// Evenly spaced samples of the wrong and the right elements: enough to tell the hypotheses apart
// at any size without computing whole products on the host.
struct Samples {
  std::vector<std::size_t> wrong;
  std::vector<std::size_t> right;
};

Samples take_samples(const DiagnosisInput& in, const Counts& counts, std::size_t max_wrong,
                     std::size_t max_right) {
  Samples s;
  const long long total = static_cast<long long>(in.got.size());
  const long long right = total - counts.wrong;
  const long long wrong_step =
      std::max<long long>(1, counts.wrong / static_cast<long long>(max_wrong));
  const long long right_step = std::max<long long>(1, right / static_cast<long long>(max_right));
  long long wrong_seen = 0;
  long long right_seen = 0;
  for (std::size_t i = 0; i < in.got.size(); ++i) {
    if (is_right(in, i)) {
      if (right_seen++ % right_step == 0 && s.right.size() < max_right) s.right.push_back(i);
    } else if (wrong_seen++ % wrong_step == 0 && s.wrong.size() < max_wrong) {
      s.wrong.push_back(i);
    }
  }
  return s;
}

std::optional<Diagnosis> from_product(const DiagnosisInput& in, const Counts& counts) {
  if (!in.product) return std::nullopt;
  const auto& p = *in.product;
  if (p.m != in.rows || p.n != in.cols ||
      p.a.size() != static_cast<std::size_t>(p.m) * static_cast<std::size_t>(p.k) ||
      p.b.size() != static_cast<std::size_t>(p.k) * static_cast<std::size_t>(p.n)) {
    return std::nullopt;
  }
  const auto samples = take_samples(in, counts, 48, 16);
  if (samples.wrong.empty()) return std::nullopt;
  std::vector<const Hypothesis*> matching;
  const auto hypotheses = product_hypotheses(p, tile_candidates(in.launch));
  for (const auto& h : hypotheses) {
    const auto fits = [&](std::size_t i) {
      const auto prediction =
          h.predict(static_cast<long long>(i) / in.cols, static_cast<long long>(i) % in.cols);
      if (!prediction) return false;
      return h.truncated ? truncates_to(in.got[i], *prediction, in.tolerance, i)
                         : close(in.got[i], *prediction, in.tolerance, i);
    };
    if (std::all_of(samples.wrong.begin(), samples.wrong.end(), fits) &&
        std::all_of(samples.right.begin(), samples.right.end(), fits)) {
      matching.push_back(&h);
    }
  }
  if (matching.empty()) return std::nullopt;
  auto d = make_diagnosis(
      matching.front()->id,
      fmt::format("{} (checked at {} wrong and {} right elements)", matching.front()->evidence,
                  samples.wrong.size(), samples.right.size()));
  for (const auto* h : matching) {
    if (h->id != d.id && std::find(d.also.begin(), d.also.end(), h->id) == d.also.end()) {
      d.also.push_back(h->id);
    }
  }
  return d;
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

}  // namespace

std::optional<Diagnosis> diagnose_launch_error(const std::string& error_text) {
  // The launcher process loaded a CUDA library (cuBLAS) to do the work.
  if (const auto at = error_text.find("your launcher loaded "); at != std::string::npos) {
    return make_diagnosis("library_kernel", error_text.substr(at));
  }
  // Only a refused launch (the message synchronize_after gives), not a fault while running.
  if (error_text.find("launch failed") == std::string::npos) return std::nullopt;
  const bool bad_configuration =
      error_text.find("cudaErrorInvalidValue") != std::string::npos ||
      error_text.find("cudaErrorInvalidConfiguration") != std::string::npos;
  if (!bad_configuration) return std::nullopt;
  return make_diagnosis("grid_too_small",
                        "the GPU refused the launch as invalid: most often a grid of 0 blocks, "
                        "which size / BLOCK gives for sizes below the block");
}

std::vector<int> tile_candidates(const std::optional<LaunchShape>& launch) {
  std::vector<int> tiles;
  if (launch && launch->block[0] > 1 && launch->block[0] == launch->block[1]) {
    tiles.push_back(static_cast<int>(launch->block[0]));
  }
  for (const int t : {16, 32, 8}) {
    if (std::find(tiles.begin(), tiles.end(), t) == tiles.end()) tiles.push_back(t);
  }
  return tiles;
}

CaseFindings examine_case(const DiagnosisInput& in) {
  CaseFindings found;
  auto& d = found.diagnosis;
  if ((d = out_of_bounds(in))) return found;
  if ((d = failed_launch(in))) return found;
  const auto total = static_cast<std::size_t>(std::max(0LL, in.rows * in.cols));
  if (in.got.empty() || in.got.size() != total || in.expected.size() != total ||
      (!in.tolerance.empty() && in.tolerance.size() != total)) {
    return found;
  }
  const Counts counts = count(in);
  if (counts.wrong == 0) return found;
  if ((d = never_written(in, counts))) return found;
  if ((d = from_shared_memory(in, found.output_repeats))) return found;
  if ((d = from_outside_reads(in))) return found;
  if ((d = uncovered_border(in, counts))) return found;
  if ((d = reduced_precision(in, counts))) return found;
  if ((d = transposed(in))) return found;
  if ((d = running_sums(in))) return found;
  if ((d = from_product(in, counts))) return found;
  if ((d = tile_patterns(in, counts))) return found;
  d = garbage(in, counts);
  return found;
}

std::optional<Diagnosis> diagnose_case(const DiagnosisInput& in) {
  return examine_case(in).diagnosis;
}

namespace {

// The diagnosis that fits the most failed cases (choose_check_diagnosis).
std::optional<Diagnosis> most_fitting(const std::vector<CaseResult>& cases) {
  std::map<std::string, int> votes;
  std::vector<std::string> order;  // ids in the order of the cases that name them
  for (const auto& c : cases) {
    if (c.verdict == Verdict::pass || !c.diagnosis) continue;
    std::vector<std::string> ids{c.diagnosis->id};
    ids.insert(ids.end(), c.diagnosis->also.begin(), c.diagnosis->also.end());
    for (const auto& id : ids) {
      if (votes[id]++ == 0) order.push_back(id);
    }
  }
  if (order.empty()) return std::nullopt;
  std::string best = order.front();
  for (const auto& id : order) {
    if (votes[id] > votes[best]) best = id;
  }
  int failed_with = 0;
  for (const auto& c : cases) failed_with += c.verdict != Verdict::pass && c.diagnosis ? 1 : 0;
  // The evidence comes from the first case that names `best` first: its words were written for
  // it (a case that only lists it as fitting too explains its own first mistake). Failing that,
  // from the first case that lists it.
  const auto names_first = [&](const CaseResult& c) {
    return c.verdict != Verdict::pass && c.diagnosis && c.diagnosis->id == best;
  };
  const bool some_case_names_it_first = std::any_of(cases.begin(), cases.end(), names_first);
  for (const auto& c : cases) {
    if (c.verdict == Verdict::pass || !c.diagnosis) continue;
    const bool primary = c.diagnosis->id == best;
    const bool also = std::find(c.diagnosis->also.begin(), c.diagnosis->also.end(), best) !=
                      c.diagnosis->also.end();
    if (!primary && (!also || some_case_names_it_first)) continue;
    Diagnosis d = primary ? *c.diagnosis : make_diagnosis(best, c.diagnosis->evidence);
    if (!primary) d.also = {c.diagnosis->id};
    d.evidence = fmt::format("case {}: {}{}", c.name, d.evidence,
                             failed_with > 1 ? fmt::format(" (fits {} of the {} diagnosed failed "
                                                           "cases)",
                                                           votes[best], failed_with)
                                             : std::string());
    return d;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Diagnosis> choose_check_diagnosis(const std::vector<CaseResult>& cases) {
  if (auto d = diagnose_sizes(cases)) return d;
  return most_fitting(cases);
}

std::optional<Diagnosis> diagnose_speed(const Timing& t) {
  if (!(t.threshold > 0) || t.ratio >= t.threshold) return std::nullopt;
  const std::string against =
      fmt::format("{:.0f}% of {} in the same run", t.ratio * 100, t.reference_name);
  const bool bandwidth = t.rate_unit == "GB/s";
  const bool versus_naive = t.reference_name.rfind("naive", 0) == 0;
  if ((bandwidth || versus_naive) && t.ratio < 0.5) {
    return make_diagnosis(
        "uncoalesced_access",
        fmt::format("{}: {} the same memory accesses done {}; scattered accesses are the usual "
                    "cause",
                    against, "less than half the speed of",
                    bandwidth ? "by a plain copy" : "coalesced"));
  }
  return make_diagnosis("slow_kernel", against + "; " + speed_reading(t));
}

std::string speed_reading(const Timing& t) {
  const bool have_roofs = t.flops > 0 && t.bytes > 0 && t.memcpy_gbps > 0;
  if (!have_roofs) {
    if (t.reference_rate > 0 && t.rate_unit == "GB/s" &&
        t.reference_name.find("cudaMemcpy") != std::string::npos) {
      return fmt::format(
          "a copy is limited by memory bandwidth: it moves data at {:.0f}% of what "
          "cudaMemcpy reaches on this GPU",
          100 * t.rate / t.reference_rate);
    }
    return t.reference_rate > 0 ? fmt::format("it runs at {:.0f}% of the reference's rate",
                                              100 * t.rate / t.reference_rate)
                                : std::string("no reference rate to compare with");
  }
  const double intensity = t.flops / t.bytes;            // FLOP per byte, at the least traffic
  const double memory_roof = t.memcpy_gbps * intensity;  // GFLOP/s the bandwidth allows
  const double compute_roof = t.cublas_gflops > 0 ? t.cublas_gflops : 0;
  const double gflops = t.flops / (t.median_ms * 1e-3) / 1e9;
  const double attainable = compute_roof > 0 ? std::min(memory_roof, compute_roof) : memory_roof;
  const double share = attainable > 0 ? gflops / attainable : 0;
  const bool memory_bound = compute_roof <= 0 || memory_roof < compute_roof;
  if (memory_bound) {
    return fmt::format(
        "at {:.2g} FLOP per byte the work is memory-bound: the bandwidth measured "
        "in this run allows {:.0f} GFLOP/s and the kernel reaches {:.0f} ({:.2g}%)",
        intensity, memory_roof, gflops, share * 100);
  }
  return fmt::format(
      "at {:.3g} FLOP per byte the work could be compute-bound: cuBLAS reaches "
      "{:.0f} GFLOP/s in this run and the kernel {:.0f} ({:.2g}%); the gap is data "
      "reuse: each value loaded serves few multiply-adds",
      intensity, compute_roof, gflops, share * 100);
}

}  // namespace harness
