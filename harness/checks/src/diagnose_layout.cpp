// The product rules on the layout: what the product would be with an operand's rows taken as
// another dimension long (A's row count used as its row length), with a width fixed in the code
// (#define WIDTH 16 where the width argument belongs), or with a shared tile stored transposed
// (Mds[tx][ty] where Mds[ty][tx] belongs). diagnose_product.cpp tries them after the operand and
// tile hypotheses.
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "diagnose_hypothesis.hpp"

namespace harness::rules {
namespace {

// Element (row, col) of A or B read with rows of `stride` elements: nothing where that lies
// outside the operand (what the kernel read there is not known).
std::optional<double> a_with_stride(const ProductInputs& p, long long r, long long l,
                                    long long stride) {
  const long long at = r * stride + l;
  if (at < 0 || static_cast<std::size_t>(at) >= p.a.size()) return std::nullopt;
  return p.a[static_cast<std::size_t>(at)];
}

std::optional<double> b_with_stride(const ProductInputs& p, long long l, long long c,
                                    long long stride) {
  const long long at = l * stride + c;
  if (at < 0 || static_cast<std::size_t>(at) >= p.b.size()) return std::nullopt;
  return p.b[static_cast<std::size_t>(at)];
}

// The inner product of `terms` terms with A read with rows of `sa` and B with rows of `sb`.
std::optional<double> strided_product(const ProductInputs& p, long long r, long long c,
                                      long long sa, long long sb, long long terms) {
  double sum = 0;
  for (long long l = 0; l < terms; ++l) {
    const auto x = a_with_stride(p, r, l, sa);
    const auto y = b_with_stride(p, l, c, sb);
    if (!x || !y) return std::nullopt;
    sum += *x * *y;
  }
  return sum;
}

// A dimension by name: "m" with its value.
struct Dimension {
  const char* name;
  long long value;
};

// A non-square product read with the wrong row length: A's rows taken as m or n elements long
// (k is right), B's as k or m (n is right), one operand or both: m, k and n confused. The words
// name each size as the hypothesis does, never by its value (with m == n, a value alone could
// not say which).
void row_stride_hypotheses(const ProductInputs& p, std::vector<Hypothesis>& out) {
  if (p.m == p.k && p.k == p.n) return;
  const Dimension k{"k", p.k};
  const Dimension m{"m", p.m};
  const Dimension n{"n", p.n};
  std::vector<std::pair<long long, long long>> tried;
  for (const Dimension& sa : {k, m, n}) {
    for (const Dimension& sb : {n, k, m}) {
      if ((sa.value == p.k && sb.value == p.n) ||
          std::find(tried.begin(), tried.end(), std::pair{sa.value, sb.value}) != tried.end()) {
        continue;
      }
      tried.emplace_back(sa.value, sb.value);
      std::string words;
      const auto say = [&](const std::string& name, bool first, const Dimension& wrong,
                           const Dimension& right) {
        if (wrong.value == right.value) return;
        const auto index = [&](const Dimension& d) {
          return first ? fmt::format("{}[row * {} + i]", name, d.name)
                       : fmt::format("{}[i * {} + col]", name, d.name);
        };
        words += fmt::format(
            "{}{} is read with rows of {} = {} elements ({} where {} belongs: its rows have {} = "
            "{})",
            words.empty() ? "" : "; ", name, wrong.name, wrong.value, index(wrong), index(right),
            right.name, right.value);
      };
      say(p.first, true, sa, k);    // A's rows have k elements
      say(p.second, false, sb, n);  // B's rows have n elements
      out.push_back({"wrong_row_stride",
                     fmt::format("the result is what the wrong row length gives: {} ({} is "
                                 "{}x{}, {} is {}x{})",
                                 words, p.first, p.m, p.k, p.second, p.k, p.n),
                     [&p, sa = sa.value, sb = sb.value](long long r, long long c) {
                       return strided_product(p, r, c, sa, sb, p.k);
                     }});
    }
  }
}

// A square product whose indexes use a constant row length instead of the width argument
// (#define WIDTH 16 where Width belongs), with the loop over the width or over the constant.
void fixed_width_hypotheses(const ProductInputs& p, std::vector<Hypothesis>& out) {
  if (p.m != p.k || p.k != p.n) return;
  for (const long long fixed : {4LL, 8LL, 16LL, 32LL, 64LL, 128LL, 256LL, 512LL, 1024LL}) {
    if (fixed == p.k) continue;
    for (const bool loop_fixed : {false, true}) {
      out.push_back(
          {"size_fixed_in_code",
           fmt::format("the result is what a width of {0} fixed in the code gives at width {1}: "
                       "{2}[row * {0} + i] * {3}[i * {0} + col] for i < {4} (a constant {0} where "
                       "the width argument belongs)",
                       fixed, p.k, p.first, p.second, loop_fixed ? fixed : p.k),
           [&p, fixed, loop_fixed](long long r, long long c) {
             return strided_product(p, r, c, fixed, fixed, loop_fixed ? fixed : p.k);
           }});
    }
  }
}

// The tiled product with one operand's tile (or both) stored transposed within each tile of t:
// Mds[tx][ty] = M[row][ph * t + tx] where Mds[ty][tx] belongs, so that Mds[ty][i] holds
// M[tile's row i][ph * t + ty]. Nothing where that reads past an operand's edge.
std::optional<double> transposed_tiles(const ProductInputs& p, long long r, long long c, int t,
                                       bool first, bool second) {
  const long long row_start = r - r % t;
  const long long col_start = c - c % t;
  double sum = 0;
  for (long long l = 0; l < p.k; ++l) {
    const long long phase_start = l - l % t;
    const long long i = l % t;
    const long long ar = first ? row_start + i : r;
    const long long ac = first ? phase_start + r % t : l;
    const long long br = second ? phase_start + c % t : l;
    const long long bc = second ? col_start + i : c;
    if (ar >= p.m || ac >= p.k || br >= p.k || bc >= p.n) return std::nullopt;
    sum += a_at(p, ar, ac) * b_at(p, br, bc);
  }
  return sum;
}

void transposed_tile_hypotheses(const ProductInputs& p, int t, std::vector<Hypothesis>& out) {
  const auto tile = [&](const std::string& name) {
    return fmt::format(
        "{0}'s tile is stored transposed (its tile[tx][ty] = {0}[...] where "
        "tile[ty][tx] belongs)",
        name);
  };
  const struct {
    bool first;
    bool second;
  } which[] = {{true, false}, {false, true}, {true, true}};
  for (const auto& w : which) {
    const std::string words = w.first && w.second ? tile(p.first) + " and so is " + tile(p.second)
                                                  : tile(w.first ? p.first : p.second);
    out.push_back(
        {"tile_transposed",
         fmt::format("the result is what transposed tiles give: {} (tiles of {})", words, t),
         [&p, t, w](long long r, long long c) {
           return transposed_tiles(p, r, c, t, w.first, w.second);
         }});
  }
}

}  // namespace

void layout_hypotheses(const ProductInputs& p, const std::vector<int>& tiles,
                       std::vector<Hypothesis>& out) {
  row_stride_hypotheses(p, out);
  fixed_width_hypotheses(p, out);
  for (const int t : tiles) {
    if (t > 1) transposed_tile_hypotheses(p, t, out);
  }
}

}  // namespace harness::rules
