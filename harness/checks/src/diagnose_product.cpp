// The rules from a product's inputs: what the product would be under each common mistake (an
// operand read transposed or from the wrong matrix, a tiling mistake, integer truncation), checked
// at samples of the wrong and the right elements.
#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "diagnose_hypothesis.hpp"
#include "diagnose_rules.hpp"

namespace harness::rules {
namespace {

// ---- rules from the product's inputs: what each common mistake would compute -------------

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

// An operand read transposed, or loaded from the other matrix: Mᵀ·N, M·Nᵀ, M·M, N·N. Each is the
// inner product with term l read another way; the words name the operands ({0} the first, {1}
// the second).
struct OperandReading {
  const char* mistake;
  const char* words;
  bool (*applies)(const ProductInputs& p);
  double (*term)(const ProductInputs& p, long long r, long long c, long long l);
};

constexpr OperandReading kOperandReadings[] = {
    {"swapped_index",
     "the result is {0}ᵀ·{1}: {0} is read transposed (its row and column swapped in the load)",
     [](const ProductInputs& p) { return p.m == p.k; },
     [](const ProductInputs& p, long long r, long long c, long long l) {
       return a_at(p, l, r) * b_at(p, l, c);
     }},
    {"swapped_index",
     "the result is {0}·{1}ᵀ: {1} is read transposed (its row and column swapped in the load)",
     [](const ProductInputs& p) { return p.k == p.n; },
     [](const ProductInputs& p, long long r, long long c, long long l) {
       return a_at(p, r, l) * b_at(p, c, l);
     }},
    // One matrix in both places: only square products have M·M and N·N.
    {"wrong_operand", "the result is {0}·{0}: the second operand is loaded from {0}, not from {1}",
     [](const ProductInputs& p) { return p.m == p.k && p.k == p.n; },
     [](const ProductInputs& p, long long r, long long c, long long l) {
       return a_at(p, r, l) * a_at(p, l, c);
     }},
    {"wrong_operand", "the result is {1}·{1}: the first operand is loaded from {1}, not from {0}",
     [](const ProductInputs& p) { return p.m == p.k && p.k == p.n; },
     [](const ProductInputs& p, long long r, long long c, long long l) {
       return b_at(p, r, l) * b_at(p, l, c);
     }},
};

void operand_hypotheses(const ProductInputs& p, std::vector<Hypothesis>& out) {
  for (const OperandReading& reading : kOperandReadings) {
    if (!reading.applies(p)) continue;
    const auto term = reading.term;
    out.push_back({reading.mistake, fmt::format(fmt::runtime(reading.words), p.first, p.second),
                   [&p, term](long long r, long long c) -> std::optional<double> {
                     return inner_product(p, [&](long long l) { return term(p, r, c, l); });
                   }});
  }
}

// `Mds[ty][ph] * Nds[ph][tx]` inside `for k`: each phase adds t times the one product at column
// (and row) ph of its tiles, which is term ph * t + ph of the inner product. Only for phases <= t:
// past TILE_WIDTH phases the kernel reads outside its tiles, which no prediction can follow.
void phase_as_inner_index_hypothesis(const ProductInputs& p, int t, long long phases,
                                     std::vector<Hypothesis>& out) {
  const std::string& f = p.first;
  const std::string& s = p.second;
  out.push_back(
      {"phase_as_inner_index",
       fmt::format("the result is what the phase in place of k in the inner product gives: "
                   "{} (tiles of {}: tile[ty][ph] * tile[ph][tx] where tile[ty][k] * "
                   "tile[k][tx] belongs)",
                   phases == 1 ? fmt::format("its one phase adds {} times the one product "
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

// A phase loop that sums too few or too many tiles: only the first, only the last, all but the
// last, or the partial last tile not zero-filled. For k > t.
void phase_count_hypotheses(const ProductInputs& p, int t, std::vector<Hypothesis>& out) {
  const long long k = p.k;
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
}

// One operand's first tile loaded in every phase (ph missing from its load's index) while the
// other's tiles move on: term l reads the held operand at l % t.
Hypothesis first_tile_held(const ProductInputs& p, int t, bool first_held) {
  const std::string& held = first_held ? p.first : p.second;
  const std::string& moving = first_held ? p.second : p.first;
  return {"phase_repeated",
          fmt::format("the result is what loading {0}'s first tile in every phase gives: {1}'s "
                      "tiles move on with the phase, {0}'s do not (ph is missing from the index "
                      "of {0}'s load; tiles of {2})",
                      held, moving, t),
          [&p, t, first_held](long long r, long long c) -> std::optional<double> {
            return inner_product(p, [&](long long l) {
              return first_held ? a_at(p, r, l % t) * b_at(p, l, c)
                                : a_at(p, r, l) * b_at(p, l % t, c);
            });
          }};
}

// The phase missing from the loads' indices: every phase loads the first tiles again (of both
// operands, or of one while the other's move on). For k > t.
void phase_repeated_hypotheses(const ProductInputs& p, int t, long long phases,
                               std::vector<Hypothesis>& out) {
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
  out.push_back(first_tile_held(p, t, true));
  out.push_back(first_tile_held(p, t, false));
}

// What each tiling mistake computes with tiles of t (each phase: t terms of every inner product).
void tile_hypotheses(const ProductInputs& p, int t, std::vector<Hypothesis>& out) {
  const long long k = p.k;
  const long long phases = (k + t - 1) / t;
  if (phases <= t) phase_as_inner_index_hypothesis(p, t, phases, out);
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
  phase_count_hypotheses(p, t, out);
  phase_repeated_hypotheses(p, t, phases, out);
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
                     return inner_product(p, [&](long long l) {
                       return std::trunc(a_at(p, r, l)) * std::trunc(b_at(p, l, c));
                     });
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
// first), then the layout (a row length, a fixed width, transposed tiles), then integer
// truncation.
std::vector<Hypothesis> product_hypotheses(const ProductInputs& p, const std::vector<int>& tiles) {
  std::vector<Hypothesis> out;
  operand_hypotheses(p, out);
  for (const int t : tiles) {
    if (t > 0) tile_hypotheses(p, t, out);
  }
  layout_hypotheses(p, tiles, out);
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

}  // namespace

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
  // Tiles live in shared memory: a kernel whose launches had none has no tiling mistake.
  const bool tiled = in.uses_shared_memory.value_or(true);
  const auto hypotheses =
      product_hypotheses(p, tiled ? tile_candidates(in.launch) : std::vector<int>{});
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
      fmt::format("{} {}", matching.front()->evidence,
                  checked_elements_words(samples.wrong.size(), samples.right.size())));
  for (const auto* h : matching) {
    if (h->id != d.id && std::find(d.also.begin(), d.also.end(), h->id) == d.also.end()) {
      d.also.push_back(h->id);
    }
  }
  return d;
}

}  // namespace harness::rules
