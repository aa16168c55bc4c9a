// The diagnosis rules on synthetic outputs: each test builds the output a known mistake gives and
// checks that the rule names it (and that a right output or another mistake is not named so).
#include "harness/diagnose.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace harness {
namespace {

const float kNaN = std::nanf("");

// No pattern that would make a product symmetric by accident.
int scramble(size_t i, unsigned salt) {
  unsigned x = static_cast<unsigned>(i) * 2654435761u + salt * 40503u;
  x ^= x >> 15;
  x *= 2246822519u;
  x ^= x >> 13;
  return static_cast<int>(x % 1000);
}

float nonzero(int value, int instead) { return static_cast<float>(value != 0 ? value : instead); }

// A small integer product: A (m x k) * B (k x n), with values in -4..4 (no zeros).
struct Product {
  int m, k, n;
  std::vector<float> a, b, c;
  Product(int m_, int k_, int n_) : m(m_), k(k_), n(n_) {
    a.resize(static_cast<size_t>(m) * k);
    b.resize(static_cast<size_t>(k) * n);
    for (size_t i = 0; i < a.size(); ++i) a[i] = nonzero(scramble(i, 1) % 9 - 4, 3);
    for (size_t i = 0; i < b.size(); ++i) b[i] = nonzero(scramble(i, 2) % 9 - 4, 2);
    c = partial(0, k);
  }
  std::vector<float> partial(int from, int to) const {
    std::vector<float> out(static_cast<size_t>(m) * n, 0.0f);
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < n; ++col) {
        double sum = 0;
        for (int l = from; l < to; ++l)
          sum += a[static_cast<size_t>(r) * k + l] * b[static_cast<size_t>(l) * n + col];
        out[static_cast<size_t>(r) * n + col] = static_cast<float>(sum);
      }
    return out;
  }
  ProductInputs inputs() const { return {a, b, m, k, n}; }
};

// A real-valued product as the checks draw it (every value in (-1, 1), none 0), with the
// tolerance the checks give it: 2 gamma_k (|A| |B|)_ij.
struct RealProduct {
  int m, k, n;
  std::vector<float> a, b, c, tolerance;
  RealProduct(int m_, int k_, int n_) : m(m_), k(k_), n(n_) {
    a.resize(static_cast<size_t>(m) * k);
    b.resize(static_cast<size_t>(k) * n);
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(scramble(i, 3) - 500) / 501;
    for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(scramble(i, 4) - 500) / 501;
    for (auto* v : {&a, &b})
      for (auto& x : *v) x = x != 0 ? x : 0.25f;
    const double u = 1.0 / 16777216.0;
    const double gamma = 2 * (k * u) / (1 - k * u);
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < n; ++col) {
        double sum = 0, magnitude = 0;
        for (int l = 0; l < k; ++l) {
          const double term = static_cast<double>(a[static_cast<size_t>(r) * k + l]) *
                              b[static_cast<size_t>(l) * n + col];
          sum += term;
          magnitude += std::fabs(term);
        }
        c.push_back(static_cast<float>(sum));
        tolerance.push_back(static_cast<float>(gamma * magnitude));
      }
  }
  float at_a(int r, int l) const { return a[static_cast<size_t>(r) * k + l]; }
  float at_b(int l, int col) const { return b[static_cast<size_t>(l) * n + col]; }
  // What a kernel computes when it adds term(r, col, step) for step = 0, 1, ... in float.
  template <class Term>
  std::vector<float> in_float(int steps, Term term) const {
    std::vector<float> out;
    for (int r = 0; r < m; ++r)
      for (int col = 0; col < n; ++col) {
        float sum = 0;
        for (int step = 0; step < steps; ++step) sum += term(r, col, step);
        out.push_back(sum);
      }
    return out;
  }
  ProductInputs inputs() const { return {a, b, m, k, n}; }
};

// C = left * right for square matrices given row-major (M·M, N·N, ...).
std::vector<float> square_product(const std::vector<float>& left, const std::vector<float>& right,
                                  int width) {
  std::vector<float> out(static_cast<size_t>(width) * width);
  for (int r = 0; r < width; ++r)
    for (int c = 0; c < width; ++c) {
      double sum = 0;
      for (int l = 0; l < width; ++l)
        sum += left[static_cast<size_t>(r) * width + l] * right[static_cast<size_t>(l) * width + c];
      out[static_cast<size_t>(r) * width + c] = static_cast<float>(sum);
    }
  return out;
}

std::vector<float> transposed_square(const std::vector<float>& m, int width) {
  std::vector<float> out(m.size());
  for (int r = 0; r < width; ++r)
    for (int c = 0; c < width; ++c)
      out[static_cast<size_t>(c) * width + r] = m[static_cast<size_t>(r) * width + c];
  return out;
}

bool says(const std::optional<Diagnosis>& d, const std::string& words) {
  return d && d->evidence.find(words) != std::string::npos;
}

DiagnosisInput input_for(const std::vector<float>& expected, const std::vector<float>& got,
                         long long rows, long long cols) {
  DiagnosisInput in;
  in.expected = expected;
  in.got = got;
  in.rows = rows;
  in.cols = cols;
  return in;
}
// DiagnosisInput holds views (Floats): an output it is given must outlive it, never a temporary.
DiagnosisInput input_for(const std::vector<float>&, std::vector<float>&&, long long,
                         long long) = delete;

std::string id_of(const std::optional<Diagnosis>& d) { return d ? d->id : "(none)"; }

TEST(Diagnose, RightOutputHasNoDiagnosis) {
  Product p(20, 20, 20);
  auto in = input_for(p.c, p.c, p.m, p.n);
  in.product = p.inputs();
  EXPECT_EQ(id_of(diagnose_case(in)), "(none)");
}

TEST(Diagnose, AllNaNIsUnwritten) {
  Product p(8, 8, 8);
  std::vector<float> got(p.c.size(), kNaN);
  auto d = diagnose_case(input_for(p.c, got, 8, 8));
  EXPECT_EQ(id_of(d), "unwritten");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->handout, "#output-never-written");
}

TEST(Diagnose, AllNaNThatIsRightFromZeroIsAccumulationIntoTheOutput) {
  Product p(8, 8, 8);
  std::vector<float> got(p.c.size(), kNaN);
  auto in = input_for(p.c, got, 8, 8);
  // += into the output: starting from 0 gives the right answer.
  in.experiments.output_prefilled = [&](float fill) -> std::optional<std::vector<float>> {
    std::vector<float> out = p.c;
    for (auto& v : out) v += fill;
    return out;
  };
  EXPECT_EQ(id_of(diagnose_case(in)), "output_not_initialised");
  // A kernel that writes nothing stays 0.
  in.experiments.output_prefilled = [&](float fill) -> std::optional<std::vector<float>> {
    return std::vector<float>(p.c.size(), fill);
  };
  EXPECT_EQ(id_of(diagnose_case(in)), "unwritten");
}

TEST(Diagnose, WritesOutsideComeFirstWithTheFirstOffset) {
  Product p(4, 4, 4);
  auto in = input_for(p.c, p.c, 4, 4);
  std::vector<float> got = p.c;
  got[5] = 0;
  in.got = got;
  in.out_of_bounds = {{"C", 16, "0"}, {"C", 17, "0"}};
  auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "out_of_bounds_write");
  EXPECT_NE(d->evidence.find("offset 16 (as if row 4, col 0)"), std::string::npos) << d->evidence;
  EXPECT_NE(d->evidence.find("2 writes"), std::string::npos) << d->evidence;
}

// TF32-like rounding: every element off by about 2^-11 of the output's scale, far beyond the
// float32 bound the tolerance gives, is named as less precise arithmetic.
TEST(Diagnose, SmallErrorsEverywhereAreReducedPrecision) {
  Product p(16, 64, 16);
  std::vector<float> tolerance(p.c.size(), 1e-6f);
  auto got = p.c;
  for (std::size_t i = 0; i < got.size(); ++i) got[i] += (i % 2 ? 1 : -1) * 3e-3f;
  auto in = input_for(p.c, got, p.m, p.n);
  in.tolerance = tolerance;
  in.product = p.inputs();
  EXPECT_EQ(id_of(diagnose_case(in)), "reduced_precision");
}

// A wrong element off by a whole term is not a precision problem, even when the others are only
// slightly off; and integer checks (no tolerance: exact) never get this diagnosis.
TEST(Diagnose, LargeErrorsOrExactChecksAreNotReducedPrecision) {
  Product p(16, 64, 16);
  std::vector<float> tolerance(p.c.size(), 1e-6f);
  auto got = p.c;
  for (auto& v : got) v += 3e-3f;
  got[17] += 5.0f;
  auto in = input_for(p.c, got, p.m, p.n);
  in.tolerance = tolerance;
  in.product = p.inputs();
  EXPECT_NE(id_of(diagnose_case(in)), "reduced_precision");
  auto exact = input_for(p.c, got, p.m, p.n);
  got[17] -= 5.0f;
  exact.got = got;
  exact.product = p.inputs();
  EXPECT_NE(id_of(diagnose_case(exact)), "reduced_precision");
}

TEST(Diagnose, RefusedLaunchIsAGridTooSmall) {
  EXPECT_EQ(id_of(diagnose_launch_error("f(1): the kernel launch failed: cudaErrorInvalidValue "
                                        "(invalid argument); check the grid and block sizes")),
            "grid_too_small");
  // A fault while running is not a refused launch.
  EXPECT_EQ(id_of(diagnose_launch_error("f(1): the kernel failed while running: "
                                        "cudaErrorIllegalAddress")),
            "(none)");
}

TEST(Diagnose, UnwrittenBottomAndRightBandsAreAGridTooSmall) {
  Product p(33, 33, 33);
  std::vector<float> got = p.c;
  for (int r = 0; r < 33; ++r)
    for (int c = 0; c < 33; ++c)
      if (r >= 32 || c >= 32) got[static_cast<size_t>(r) * 33 + c] = kNaN;
  auto in = input_for(p.c, got, 33, 33);
  in.launch = LaunchShape{{2, 2, 1}, {16, 16, 1}};
  auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "grid_too_small");
  EXPECT_NE(d->evidence.find("32x32"), std::string::npos) << d->evidence;
  // A grid with a thread for every element is not too small: its threads wrote elsewhere.
  in.launch = LaunchShape{{3, 3, 1}, {16, 16, 1}};
  EXPECT_NE(id_of(diagnose_case(in)), "grid_too_small");
  // A vector (one column) whose last rows are unwritten.
  std::vector<float> column(300, 1.0f);
  std::vector<float> got_column = column;
  for (int i = 256; i < 300; ++i) got_column[static_cast<size_t>(i)] = kNaN;
  EXPECT_EQ(id_of(diagnose_case(input_for(column, got_column, 300, 1))), "grid_too_small");
}

TEST(Diagnose, TransposedResult) {
  Product p(9, 9, 9);
  std::vector<float> got(p.c.size());
  for (int r = 0; r < 9; ++r)
    for (int c = 0; c < 9; ++c)
      got[static_cast<size_t>(c) * 9 + r] = p.c[static_cast<size_t>(r) * 9 + c];
  EXPECT_EQ(id_of(diagnose_case(input_for(p.c, got, 9, 9))), "transposed_result");
  // With the operands known, the evidence names the product in the contract's letters.
  auto with_product = input_for(p.c, got, 9, 9);
  with_product.product = p.inputs();
  with_product.product->first = "A";
  with_product.product->second = "B";
  const auto named = diagnose_case(with_product);
  EXPECT_EQ(id_of(named), "transposed_result");
  EXPECT_TRUE(says(named, "the result is (A·B)ᵀ")) << named->evidence;
  // Not square: the transpose laid out as cols x rows (lab 1's transposed copy).
  std::vector<float> in(6 * 10), out(6 * 10);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) + 0.5f;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 10; ++c)
      out[static_cast<size_t>(c) * 6 + r] = in[static_cast<size_t>(r) * 10 + c];
  EXPECT_EQ(id_of(diagnose_case(input_for(in, out, 6, 10))), "transposed_result");
}

TEST(Diagnose, TransposedWithinTolerance) {
  std::vector<float> expected{1.0f, 2.0f, 3.0f, 4.0f};
  std::vector<float> got{1.0f, 3.0001f, 2.0001f, 4.0f};
  std::vector<float> tolerance(4, 0.001f);
  auto in = input_for(expected, got, 2, 2);
  in.tolerance = tolerance;
  EXPECT_EQ(id_of(diagnose_case(in)), "transposed_result");
  tolerance.assign(4, 1e-6f);
  in.tolerance = tolerance;
  EXPECT_NE(id_of(diagnose_case(in)), "transposed_result");
}

TEST(Diagnose, OperandReadTransposedIsASwappedIndex) {
  Product p(12, 12, 12);
  // M times N transposed (lab 6's swapped tile index).
  std::vector<float> got(p.c.size());
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) {
      double sum = 0;
      for (int l = 0; l < 12; ++l)
        sum += p.a[static_cast<size_t>(r) * 12 + l] * p.b[static_cast<size_t>(c) * 12 + l];
      got[static_cast<size_t>(r) * 12 + c] = static_cast<float>(sum);
    }
  auto in = input_for(p.c, got, 12, 12);
  in.product = p.inputs();
  const auto d = diagnose_case(in);
  EXPECT_EQ(id_of(d), "swapped_index");
  EXPECT_TRUE(says(d, "the result is M·Nᵀ: N is read transposed")) << d->evidence;
  // M transposed times N.
  const auto m_transposed_n = square_product(transposed_square(p.a, 12), p.b, 12);
  in.got = m_transposed_n;
  const auto first = diagnose_case(in);
  EXPECT_EQ(id_of(first), "swapped_index");
  EXPECT_TRUE(says(first, "the result is Mᵀ·N: M is read transposed")) << first->evidence;
  // Matrix-vector with the matrix read transposed (lab 4).
  Product v(10, 10, 1);
  std::vector<float> got_v(10);
  for (int i = 0; i < 10; ++i) {
    double sum = 0;
    for (int j = 0; j < 10; ++j)
      sum += v.a[static_cast<size_t>(j) * 10 + i] * v.b[static_cast<size_t>(j)];
    got_v[static_cast<size_t>(i)] = static_cast<float>(sum);
  }
  auto in_v = input_for(v.c, got_v, 10, 1);
  in_v.product = v.inputs();
  in_v.product->first = "B";  // lab 4: A = B * C
  in_v.product->second = "C";
  const auto matvec = diagnose_case(in_v);
  EXPECT_EQ(id_of(matvec), "swapped_index");
  EXPECT_TRUE(says(matvec, "the result is Bᵀ·C")) << matvec->evidence;
}

TEST(Diagnose, OneMatrixInBothPlacesIsAWrongOperand) {
  Product p(12, 12, 12);
  const auto m_m_out = square_product(p.a, p.a, 12);
  const auto n_n_out = square_product(p.b, p.b, 12);
  const auto m_transposed_n = square_product(transposed_square(p.a, 12), p.b, 12);
  auto in = input_for(p.c, m_m_out, 12, 12);
  in.product = p.inputs();
  // N's tile loaded from M: M·M.
  const auto m_m = diagnose_case(in);
  ASSERT_EQ(id_of(m_m), "wrong_operand");
  EXPECT_TRUE(says(m_m, "the result is M·M: the second operand is loaded from M, not from N"))
      << m_m->evidence;
  // M's loaded from N: N·N, in the lab's own letters.
  in.got = n_n_out;
  in.product->first = "A";
  in.product->second = "B";
  const auto n_n = diagnose_case(in);
  ASSERT_EQ(id_of(n_n), "wrong_operand");
  EXPECT_TRUE(says(n_n, "the result is B·B: the first operand is loaded from B, not from A"))
      << n_n->evidence;
  // Another mistake's output, or a right one, is not a wrong operand.
  in.got = m_transposed_n;
  EXPECT_EQ(id_of(diagnose_case(in)), "swapped_index");
  in.got = p.c;
  EXPECT_EQ(id_of(diagnose_case(in)), "(none)");
  // Not square: no M·M to compare with.
  Product wide(12, 12, 20);
  const auto first_six = wide.partial(0, 6);
  auto other = input_for(wide.c, first_six, 12, 20);
  other.product = wide.inputs();
  EXPECT_NE(id_of(diagnose_case(other)), "wrong_operand");
}

// `Pvalue += Mds[ty][ph] * Nds[ph][tx]` inside `for (k ...)`: each phase adds TILE_WIDTH times
// the product at column ph of M's tile and row ph of N's, i.e. term ph * TILE_WIDTH + ph.
TEST(Diagnose, PhaseInPlaceOfTheInnerIndex) {
  Product p(32, 64, 32);
  std::vector<float> got(p.c.size());
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      double sum = 0;
      for (int ph = 0; ph < 4; ++ph)
        sum += 16.0 * p.a[static_cast<size_t>(r) * 64 + ph * 17] *
               p.b[static_cast<size_t>(ph * 17) * 32 + c];
      got[static_cast<size_t>(r) * 32 + c] = static_cast<float>(sum);
    }
  auto in = input_for(p.c, got, 32, 32);
  in.product = p.inputs();
  in.launch = LaunchShape{{2, 2, 1}, {16, 16, 1}};
  const auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "phase_as_inner_index");
  EXPECT_TRUE(says(d,
                   "each of the 4 phases adds 16 times the one product "
                   "M[row][ph * 17]·N[ph * 17][col]"))
      << d->evidence;
  // On reals, summed in float as the kernel does, within the check's tolerance; one phase of 32.
  RealProduct r(32, 32, 32);
  const auto one_phase =
      r.in_float(32, [&](int row, int col, int) { return r.at_a(row, 0) * r.at_b(0, col); });
  auto reals = input_for(r.c, one_phase, 32, 32);
  reals.tolerance = r.tolerance;
  reals.product = r.inputs();
  reals.launch = LaunchShape{{1, 1, 1}, {32, 32, 1}};
  const auto one = diagnose_case(reals);
  ASSERT_EQ(id_of(one), "phase_as_inner_index");
  EXPECT_TRUE(says(one, "its one phase adds 32 times the one product M[row][0]·N[0][col]"))
      << one->evidence;
  // The right product and another tiling mistake are not it.
  in.got = p.c;
  EXPECT_EQ(id_of(diagnose_case(in)), "(none)");
  const auto first_tile = p.partial(0, 16);
  in.got = first_tile;
  EXPECT_EQ(id_of(diagnose_case(in)), "first_tile_only");
  // A kernel whose launches had no shared memory has no tiles to get wrong.
  in.uses_shared_memory = false;
  EXPECT_NE(id_of(diagnose_case(in)), "first_tile_only");
}

// More phases than the tile is wide: the kernel reads past its tiles, nothing to predict.
TEST(Diagnose, PhaseAsInnerIndexOnlyWhileThePhasesFitTheTile) {
  Product p(8, 24 * 16, 8);  // 24 phases of 16; at tiles of 32 the prediction differs
  std::vector<float> got(p.c.size());
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) {
      double sum = 0;
      for (int ph = 0; ph < 16; ++ph)
        sum += 16.0 * p.a[static_cast<size_t>(r) * p.k + ph * 17] *
               p.b[static_cast<size_t>(ph * 17) * 8 + c];
      got[static_cast<size_t>(r) * 8 + c] = static_cast<float>(sum);
    }
  auto in = input_for(p.c, got, 8, 8);
  in.product = p.inputs();
  in.launch = LaunchShape{{1, 1, 1}, {16, 16, 1}};
  EXPECT_NE(id_of(diagnose_case(in)), "phase_as_inner_index");
}

TEST(Diagnose, SameTilesInEveryPhase) {
  Product p(48, 48, 48);
  auto three_times_first = p.partial(0, 16);
  for (auto& v : three_times_first) v *= 3;
  auto in = input_for(p.c, three_times_first, 48, 48);
  in.product = p.inputs();
  const auto both = diagnose_case(in);
  ASSERT_EQ(id_of(both), "phase_repeated");
  EXPECT_TRUE(says(both, "the result is 3 times the first tile's terms")) << both->evidence;
  // Only M's load lacks ph: M's first tile meets each of N's tiles.
  std::vector<float> m_fixed(p.c.size());
  for (int r = 0; r < 48; ++r)
    for (int c = 0; c < 48; ++c) {
      double sum = 0;
      for (int l = 0; l < 48; ++l)
        sum += p.a[static_cast<size_t>(r) * 48 + l % 16] * p.b[static_cast<size_t>(l) * 48 + c];
      m_fixed[static_cast<size_t>(r) * 48 + c] = static_cast<float>(sum);
    }
  in.got = m_fixed;
  const auto one = diagnose_case(in);
  ASSERT_EQ(id_of(one), "phase_repeated");
  EXPECT_TRUE(says(one, "loading M's first tile in every phase")) << one->evidence;
  // On reals, summed in float.
  RealProduct r(64, 64, 64);
  const auto four_times = r.in_float(64, [&](int row, int col, int step) {
    return r.at_a(row, step % 16) * r.at_b(step % 16, col);
  });
  auto reals = input_for(r.c, four_times, 64, 64);
  reals.tolerance = r.tolerance;
  reals.product = r.inputs();
  const auto real = diagnose_case(reals);
  ASSERT_EQ(id_of(real), "phase_repeated");
  EXPECT_TRUE(says(real, "the result is 4 times")) << real->evidence;
  // The first tile once is the first tile only, not this.
  const auto first_tile = p.partial(0, 16);
  in.got = first_tile;
  EXPECT_EQ(id_of(diagnose_case(in)), "first_tile_only");
}

// The checks' real inputs lie in (-1, 1): int tiles hold 0, and an int sum drops every product.
TEST(Diagnose, IntTilesOrAnIntSumOnRealsGiveZeroEverywhere) {
  RealProduct r(40, 40, 40);
  const std::vector<float> zeros(r.c.size(), 0.0f);
  auto in = input_for(r.c, zeros, 40, 40);
  in.tolerance = r.tolerance;
  in.product = r.inputs();
  const auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "integer_truncation");
  EXPECT_TRUE(says(d, "the result is what float → int truncation gives: every element is 0"))
      << d->evidence;
  // The right product on reals has nothing to name.
  in.got = r.c;
  EXPECT_EQ(id_of(diagnose_case(in)), "(none)");
  // Below one tile the phases rounded down give 0 too: named first, truncation fits as well.
  RealProduct small(5, 7, 6);
  const std::vector<float> small_zeros(small.c.size(), 0.0f);
  auto tiny = input_for(small.c, small_zeros, 5, 6);
  tiny.tolerance = small.tolerance;
  tiny.product = small.inputs();
  const auto both = diagnose_case(tiny);
  ASSERT_EQ(id_of(both), "last_tile_skipped");
  EXPECT_EQ(both->also, std::vector<std::string>{"integer_truncation"});
}

// Inputs with fractions and magnitudes above 1 (halves: every sum is exact in float) tell the
// three places an int can sit apart.
TEST(Diagnose, WhereTheIntSitsOnInputsWithFractions) {
  Product p(16, 40, 16);
  for (size_t i = 0; i < p.a.size(); ++i) p.a[i] = nonzero(scramble(i, 5) % 17 - 8, 3) / 2;
  for (size_t i = 0; i < p.b.size(); ++i) p.b[i] = nonzero(scramble(i, 6) % 17 - 8, 5) / 2;
  p.c = p.partial(0, p.k);
  std::vector<float> int_tiles, int_sum, int_store;
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c) {
      double tiles = 0, sum = 0;
      for (int l = 0; l < 40; ++l) {
        const float a = p.a[static_cast<size_t>(r) * 40 + l];
        const float b = p.b[static_cast<size_t>(l) * 16 + c];
        tiles += std::trunc(a) * std::trunc(b);
        sum = std::trunc(sum + a * b);
      }
      int_tiles.push_back(static_cast<float>(tiles));
      int_sum.push_back(static_cast<float>(sum));
      int_store.push_back(std::trunc(p.c[static_cast<size_t>(r) * 16 + c]));
    }
  const struct {
    const std::vector<float>* got;
    const char* words;
  } cases[] = {{&int_tiles, "the product of the inputs truncated to int"},
               {&int_sum, "an int sum, truncated each time a product is added"},
               {&int_store, "the right sum with its fraction dropped"}};
  for (const auto& c : cases) {
    auto in = input_for(p.c, *c.got, 16, 16);
    in.product = p.inputs();
    const auto d = diagnose_case(in);
    ASSERT_EQ(id_of(d), "integer_truncation") << c.words;
    EXPECT_TRUE(says(d, c.words)) << d->evidence;
  }
}

// On integer-valued inputs an int is exact: the same kernels give the right product, and a wrong
// one there is another mistake.
TEST(Diagnose, IntegerTruncationIsNotNamedOnIntegerInputs) {
  Product p(32, 48, 32);
  std::vector<float> int_sum;
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 32; ++c) {
      double sum = 0;
      for (int l = 0; l < 48; ++l)
        sum = std::trunc(sum + p.a[static_cast<size_t>(r) * 48 + l] *
                                   p.b[static_cast<size_t>(l) * 32 + c]);
      int_sum.push_back(static_cast<float>(sum));
    }
  EXPECT_EQ(int_sum, p.c);
  auto in = input_for(p.c, int_sum, 32, 32);
  in.product = p.inputs();
  EXPECT_EQ(id_of(diagnose_case(in)), "(none)");
  const auto two_tiles = p.partial(0, 32);
  in.got = two_tiles;
  const auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "last_tile_skipped");
  EXPECT_EQ(std::count(d->also.begin(), d->also.end(), "integer_truncation"), 0);
  // Nor on reals when the output is another mistake's.
  RealProduct r(32, 48, 32);
  const auto first_tile =
      r.in_float(16, [&](int row, int col, int l) { return r.at_a(row, l) * r.at_b(l, col); });
  auto reals = input_for(r.c, first_tile, 32, 32);
  reals.tolerance = r.tolerance;
  reals.product = r.inputs();
  EXPECT_EQ(id_of(diagnose_case(reals)), "first_tile_only");
}

TEST(Diagnose, RunningSumsAreAnAccumulatorNotReset) {
  Product p(7, 7, 7);
  std::vector<float> got(p.c.size());
  for (int r = 0; r < 7; ++r) {
    float sum = 0;
    for (int c = 0; c < 7; ++c)
      got[static_cast<size_t>(r) * 7 + c] = sum += p.c[static_cast<size_t>(r) * 7 + c];
  }
  EXPECT_EQ(id_of(diagnose_case(input_for(p.c, got, 7, 7))), "accumulator_not_reset");
}

TEST(Diagnose, TilingMistakesFromTheOperands) {
  Product p(48, 48, 48);
  const struct {
    std::vector<float> got;
    const char* id;
  } cases[] = {
      {p.partial(0, 16), "first_tile_only"},
      {p.partial(32, 48), "accumulator_reset_in_loop"},
      {p.partial(0, 32), "last_tile_skipped"},
  };
  for (const auto& c : cases) {
    auto in = input_for(p.c, c.got, 48, 48);
    in.product = p.inputs();
    EXPECT_EQ(id_of(diagnose_case(in)), c.id);
  }
  // At k = 2 tiles the first tile alone and the last tile skipped are the same sum: both named.
  Product two(32, 32, 32);
  const auto first_half = two.partial(0, 16);
  auto in = input_for(two.c, first_half, 32, 32);
  in.product = two.inputs();
  auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "first_tile_only");
  EXPECT_EQ(d->also, std::vector<std::string>{"last_tile_skipped"});
}

// A product read with `sa` as A's row length and `sb` as B's, summing `terms` terms.
std::vector<float> strided(const Product& p, int sa, int sb, int terms) {
  std::vector<float> out;
  for (int r = 0; r < p.m; ++r)
    for (int col = 0; col < p.n; ++col) {
      double sum = 0;
      for (int l = 0; l < terms; ++l)
        sum += p.a[static_cast<size_t>(r) * sa + l] * p.b[static_cast<size_t>(l) * sb + col];
      out.push_back(static_cast<float>(sum));
    }
  return out;
}

TEST(Diagnose, ARowLengthFromAnotherDimensionIsAWrongRowStride) {
  // A[row * m + i] where A[row * k + i] belongs (m < k, so every read stays inside A).
  Product p(7, 13, 11);
  const auto a_by_m = strided(p, 7, 11, 13);
  auto in = input_for(p.c, a_by_m, 7, 11);
  in.product = p.inputs();
  in.product->first = "A";
  in.product->second = "B";
  auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "wrong_row_stride");
  EXPECT_TRUE(says(d,
                   "A is read with rows of m = 7 elements (A[row * m + i] where A[row * k + i] "
                   "belongs: its rows have k = 13)"))
      << d->evidence;
  EXPECT_TRUE(says(d, "A is 7x13, B is 13x11")) << d->evidence;
  // B[i * k + col] where B[i * n + col] belongs (k < n).
  Product wide(7, 9, 13);
  const auto b_by_k = strided(wide, 9, 9, 9);
  auto in_b = input_for(wide.c, b_by_k, 7, 13);
  in_b.product = wide.inputs();
  d = diagnose_case(in_b);
  ASSERT_EQ(id_of(d), "wrong_row_stride");
  EXPECT_TRUE(says(d,
                   "N is read with rows of k = 9 elements (N[i * k + col] where N[i * n + col] "
                   "belongs"))
      << d->evidence;
  // m == n: B's right row length is still named n, never m (a value alone cannot tell which).
  Product tall(9, 5, 9);
  const auto b_by_k_tall = strided(tall, 5, 5, 5);
  auto in_tall = input_for(tall.c, b_by_k_tall, 9, 9);
  in_tall.product = tall.inputs();
  d = diagnose_case(in_tall);
  ASSERT_EQ(id_of(d), "wrong_row_stride");
  EXPECT_TRUE(says(d,
                   "N is read with rows of k = 5 elements (N[i * k + col] where N[i * n + col] "
                   "belongs: its rows have n = 9)"))
      << d->evidence;
  // m == k: A's right row length is named k, and the wrong one m where the hypothesis took m.
  Product flat(6, 6, 11);
  const auto b_by_m = strided(flat, 6, 6, 6);
  auto in_flat = input_for(flat.c, b_by_m, 6, 11);
  in_flat.product = flat.inputs();
  d = diagnose_case(in_flat);
  ASSERT_EQ(id_of(d), "wrong_row_stride");
  EXPECT_TRUE(says(d, "N[i * k + col] where N[i * n + col] belongs: its rows have n = 11"))
      << d->evidence;
  // A square product has one row length: no such hypothesis (the right answer is the same).
  Product square(12, 12, 12);
  const auto other = square.partial(0, 6);
  auto in_square = input_for(square.c, other, 12, 12);
  in_square.product = square.inputs();
  EXPECT_NE(id_of(diagnose_case(in_square)), "wrong_row_stride");
}

TEST(Diagnose, AConstantRowLengthOnASquareProductIsASizeFixedInTheCode) {
  // #define WIDTH 16 in the loads of a 48 x 48 product, the loop over the width argument.
  Product p(48, 48, 48);
  const auto fixed = strided(p, 16, 16, 48);
  auto in = input_for(p.c, fixed, 48, 48);
  in.product = p.inputs();
  const auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "size_fixed_in_code");
  EXPECT_TRUE(says(d,
                   "a width of 16 fixed in the code gives at width 48: M[row * 16 + i] * "
                   "N[i * 16 + col] for i < 48"))
      << d->evidence;
  // The loop over the constant too: the first 16 terms read with rows of 16.
  const auto fixed_loop = strided(p, 16, 16, 16);
  in.got = fixed_loop;
  EXPECT_TRUE(says(diagnose_case(in), "for i < 16"));
}

// Mds[tx][ty] = M[row][ph * t + tx]: within each tile of M, element (i, j) is used as (j, i).
std::vector<float> tiles_transposed(const Product& p, int t, bool first, bool second) {
  std::vector<float> out;
  for (int r = 0; r < p.m; ++r)
    for (int c = 0; c < p.n; ++c) {
      double sum = 0;
      for (int l = 0; l < p.k; ++l) {
        const int start = l - l % t;
        const int ar = first ? r - r % t + l % t : r;
        const int ac = first ? start + r % t : l;
        const int br = second ? start + c % t : l;
        const int bc = second ? c - c % t + l % t : c;
        sum += p.a[static_cast<size_t>(ar) * p.k + ac] * p.b[static_cast<size_t>(br) * p.n + bc];
      }
      out.push_back(static_cast<float>(sum));
    }
  return out;
}

TEST(Diagnose, ATileStoredTransposedIsNamed) {
  Product p(32, 32, 32);
  auto in = input_for(p.c, p.c, 32, 32);
  in.product = p.inputs();
  in.launch = LaunchShape{{2, 2, 1}, {16, 16, 1}};
  const auto m_tile = tiles_transposed(p, 16, true, false);
  in.got = m_tile;
  auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "tile_transposed");
  EXPECT_TRUE(says(d,
                   "M's tile is stored transposed (its tile[tx][ty] = M[...] where "
                   "tile[ty][tx] belongs) (tiles of 16)"))
      << d->evidence;
  const auto n_tile = tiles_transposed(p, 16, false, true);
  in.got = n_tile;
  d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "tile_transposed");
  EXPECT_TRUE(says(d, "N's tile is stored transposed")) << d->evidence;
  // Not the whole operand transposed: that stays a swapped index.
  const auto whole = square_product(transposed_square(p.a, 32), p.b, 32);
  in.got = whole;
  EXPECT_EQ(id_of(diagnose_case(in)), "swapped_index");
}

TEST(Diagnose, PartialTileNotZeroFilledAndPhasesRoundedDown) {
  Product p(20, 37, 23);  // k = 37: two full tiles of 16 and 5 more
  std::vector<float> got = p.c;
  const auto stale = p.partial(16 + 5, 32);  // the previous tile's entries past k % 16
  for (size_t i = 0; i < got.size(); ++i) got[i] += stale[i];
  auto in = input_for(p.c, got, 20, 23);
  in.product = p.inputs();
  EXPECT_EQ(id_of(diagnose_case(in)), "tile_not_zero_filled");
  // k / 16 phases, rounded down: the last 5 terms missing.
  auto rounded = p.partial(0, 32);
  in.got = rounded;
  EXPECT_EQ(id_of(diagnose_case(in)), "last_tile_skipped");
  // k below the tile: nothing added at all.
  Product small(1, 1, 1);
  std::vector<float> zero{0.0f};
  auto in_small = input_for(small.c, zero, 1, 1);
  in_small.product = small.inputs();
  EXPECT_EQ(id_of(diagnose_case(in_small)), "last_tile_skipped");
}

TEST(Diagnose, OutputThatChangesBetweenRunsIsARace) {
  Product p(16, 16, 16);
  std::vector<float> got = p.c;
  got[3] += 1;
  auto in = input_for(p.c, got, 16, 16);
  int runs = 0;
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> {
    auto out = p.c;
    out[static_cast<size_t>(runs++ % 5)] += 1;  // wrong somewhere else every time
    return out;
  };
  EXPECT_EQ(id_of(diagnose_case(in)), "race");
}

// Issue 30: a lab 2 or lab 4 kernel has no shared memory; an output that changes from run to run
// there (threads outside the matrix reading past the buffers, or writing into other rows') is no
// race on shared memory, and "call __syncthreads()" would send the student the wrong way.
TEST(Diagnose, NoRaceWithoutSharedMemory) {
  Product p(16, 16, 16);
  std::vector<float> got = p.c;
  got[3] += 1;
  auto in = input_for(p.c, got, 16, 16);
  int runs = 0;
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> {
    auto out = p.c;
    out[static_cast<size_t>(runs++ % 5)] += 1;
    return out;
  };
  in.uses_shared_memory = false;
  const auto found = examine_case(in);
  EXPECT_NE(id_of(found.diagnosis), "race");
  EXPECT_NE(id_of(found.diagnosis), "uninitialised_shared");
  EXPECT_EQ(found.output_repeats, false);  // still known: the size rule needs it
  // Wrong once, right on every rerun: no race either.
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> { return p.c; };
  EXPECT_NE(id_of(diagnose_case(in)), "race");
  // The same runs with shared memory recorded: a race.
  in.uses_shared_memory = true;
  EXPECT_EQ(id_of(diagnose_case(in)), "race");
}

TEST(Diagnose, RaceRunsSayWhetherTheOutputRepeats) {
  Product p(16, 16, 16);
  std::vector<float> got = p.c;
  got[3] += 1;
  auto in = input_for(p.c, got, 16, 16);
  int runs = 0;
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> {
    auto out = p.c;
    out[static_cast<size_t>(runs++ % 5)] += 1;
    return out;
  };
  EXPECT_EQ(examine_case(in).output_repeats, false);
  // A kernel that reads stale memory outside its inputs: wrong, but the same on the same buffers.
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> { return got; };
  const auto found = examine_case(in);
  EXPECT_EQ(found.output_repeats, true);
  EXPECT_NE(id_of(found.diagnosis), "race");
  // No experiments: nothing known.
  EXPECT_EQ(examine_case(input_for(p.c, got, 16, 16)).output_repeats, std::nullopt);
}

TEST(Diagnose, WrongOnceThenRightOnEveryRerunIsARace) {
  Product p(16, 16, 16);
  std::vector<float> got = p.c;
  got[7] -= 2;
  auto in = input_for(p.c, got, 16, 16);
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> { return p.c; };
  const auto found = examine_case(in);
  ASSERT_EQ(id_of(found.diagnosis), "race");
  EXPECT_EQ(found.output_repeats, false);
  EXPECT_NE(found.diagnosis->evidence.find("three more runs"), std::string::npos);
}

TEST(Diagnose, OutputThatFollowsOldSharedMemoryIsUninitialisedShared) {
  Product p(16, 16, 16);
  std::vector<float> got = p.c;
  got[0] = 1234;
  auto in = input_for(p.c, got, 16, 16);
  in.experiments.shared_prefilled = [&](float fill) -> std::optional<std::vector<float>> {
    auto out = p.c;
    out[0] += fill;  // the same every time for the same fill
    return out;
  };
  EXPECT_EQ(id_of(diagnose_case(in)), "uninitialised_shared");
  // Experiments that change nothing say nothing: the rule falls through.
  in.experiments.shared_prefilled = [&](float) -> std::optional<std::vector<float>> { return got; };
  EXPECT_NE(id_of(diagnose_case(in)), "uninitialised_shared");
}

TEST(Diagnose, OutputThatChangesWithNaNAroundTheInputsReadsOutside) {
  std::vector<float> expected{1, 0, 0, 1};
  std::vector<float> got{1, 1e-14f, 0, 1};
  auto in = input_for(expected, got, 2, 2);
  in.experiments.input_guards_nan = [&]() -> std::optional<std::vector<float>> {
    return std::vector<float>{kNaN, kNaN, kNaN, kNaN};
  };
  auto d = diagnose_case(in);
  ASSERT_EQ(id_of(d), "reads_outside_inputs");
  EXPECT_NE(d->evidence.find("4 output elements"), std::string::npos) << d->evidence;
}

TEST(Diagnose, OnlyTheFirstTileOrBlockRowRight) {
  std::vector<float> expected(64 * 64);
  for (size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<float>(i % 13) + 1;
  std::vector<float> got(expected.size(), -5.0f);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 16; ++c)
      got[static_cast<size_t>(r) * 64 + c] = expected[static_cast<size_t>(r) * 64 + c];
  EXPECT_EQ(id_of(diagnose_case(input_for(expected, got, 64, 64))), "only_first_tile");
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < 64; ++c)
      got[static_cast<size_t>(r) * 64 + c] = expected[static_cast<size_t>(r) * 64 + c];
  auto d = diagnose_case(input_for(expected, got, 64, 64));
  ASSERT_EQ(id_of(d), "only_first_tile");
  EXPECT_NE(d->evidence.find("first row of blocks"), std::string::npos) << d->evidence;
}

TEST(Diagnose, WrongBorderPastTheLastFullTile) {
  std::vector<float> expected(40 * 40, 2.0f);
  std::vector<float> got = expected;
  got[static_cast<size_t>(35) * 40 + 3] = 7;  // row 35: past the last full tile of 16 (rows 32+)
  got[static_cast<size_t>(4) * 40 + 39] = 7;  // column 39
  EXPECT_EQ(id_of(diagnose_case(input_for(expected, got, 40, 40))), "border_wrong");
  got[static_cast<size_t>(5) * 40 + 5] = 7;  // and one inside: no longer the border alone
  EXPECT_NE(id_of(diagnose_case(input_for(expected, got, 40, 40))), "border_wrong");
}

TEST(Diagnose, GarbageEverywhere) {
  std::vector<float> expected(100, 1.0f);
  std::vector<float> got(100, 1.0f);
  for (int i = 0; i < 60; ++i) got[static_cast<size_t>(i)] = i % 2 ? kNaN : 3e30f;
  EXPECT_EQ(id_of(diagnose_case(input_for(expected, got, 10, 10))), "nan_everywhere");
}

TEST(Diagnose, TileCandidatesStartWithTheRecordedBlock) {
  EXPECT_EQ(tile_candidates(LaunchShape{{4, 4, 1}, {32, 32, 1}}), (std::vector<int>{32, 16, 8}));
  EXPECT_EQ(tile_candidates(LaunchShape{{4, 4, 1}, {64, 1, 1}}), (std::vector<int>{16, 32, 8}));
  EXPECT_EQ(tile_candidates(std::nullopt), (std::vector<int>{16, 32, 8}));
}

TEST(Diagnose, CheckTakesTheDiagnosisThatFitsMostCases) {
  std::vector<CaseResult> cases(4);
  cases[0].name = "32";
  cases[0].verdict = Verdict::fail;
  cases[0].diagnosis = make_diagnosis("last_tile_skipped", "a");
  cases[0].diagnosis->also = {"first_tile_only"};
  cases[1].name = "64";
  cases[1].verdict = Verdict::fail;
  cases[1].diagnosis = make_diagnosis("first_tile_only", "b");
  cases[2].verdict = Verdict::pass;
  cases[3].name = "96";
  cases[3].verdict = Verdict::fail;
  cases[3].diagnosis = make_diagnosis("first_tile_only", "c");
  auto d = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(d), "first_tile_only");
  // The evidence is from the first case that names it first (case 32 wrote its words for
  // last_tile_skipped).
  EXPECT_NE(d->evidence.find("case 64: b"), std::string::npos) << d->evidence;
  EXPECT_NE(d->evidence.find("fits 3 of the 3"), std::string::npos) << d->evidence;
  EXPECT_EQ(id_of(choose_check_diagnosis(std::vector<CaseResult>(2))), "(none)");
  // When no case names it first, the first case that lists it gives its evidence.
  cases[1].diagnosis = make_diagnosis("last_tile_skipped", "b");
  cases[1].diagnosis->also = {"first_tile_only"};
  cases[3].diagnosis = make_diagnosis("last_tile_skipped", "c");
  cases[3].diagnosis->also = {"first_tile_only"};
  cases[0].diagnosis->also = {};
  d = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(d), "last_tile_skipped");
  EXPECT_NE(d->evidence.find("case 32: a"), std::string::npos) << d->evidence;
}

// ---- a failure that depends on the size, not on the run ---------------------------------------

CaseResult sized_case(long long width, Verdict verdict, std::optional<bool> repeats = true,
                      const char* diagnosis = nullptr) {
  CaseResult c;
  c.name = fmt::format("integers {0}x{0} * {0}x{0}", width);
  c.width = width;
  c.verdict = verdict;
  if (verdict == Verdict::fail) {
    c.total = width * width;
    c.mismatches = c.total / 2;
    c.output_repeats = repeats;
    if (diagnosis) c.diagnosis = make_diagnosis(diagnosis, "case evidence");
  }
  return c;
}

// The error map of a failed width x width case whose blocks of `side` are drawn on it: the
// top-left `right` x `right` elements right, the rest NaN (one cell per element).
ErrorMap map_right_top_left(long long width, long long side, long long right) {
  ErrorMap map;
  map.rows = map.cols = width;
  map.grid_rows = map.grid_cols = static_cast<int>(width);
  map.wrong_fraction.assign(static_cast<size_t>(width * width), 1.0f);
  for (long long r = 0; r < right; ++r)
    for (long long c = 0; c < right; ++c)
      map.wrong_fraction[static_cast<size_t>(r * width + c)] = 0;
  map.tile_rows = map.tile_cols = side;
  return map;
}

// #define WIDTH 1024 in the loads: right at 1024 only; elsewhere the loads run past the inputs.
TEST(DiagnoseSizes, RightAtOneWidthOnlyWithRepeatableFailuresIsASizeFixedInTheCode) {
  std::vector<CaseResult> cases;
  for (const long long w : {32, 64, 96, 512})
    cases.push_back(sized_case(w, Verdict::fail, true, "reads_outside_inputs"));
  cases.push_back(sized_case(1024, Verdict::pass));
  const auto d = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(d), "size_fixed_in_code");
  EXPECT_EQ(d->handout, "#a-size-fixed-in-the-code");
  EXPECT_NE(d->evidence.find("right at width 1024, wrong at the smaller widths 32, 64, 96 and 512"),
            std::string::npos)
      << d->evidence;
  EXPECT_NE(d->evidence.find("same output (no race)"), std::string::npos) << d->evidence;
  EXPECT_NE(d->evidence.find("depends on the width, not on the run"), std::string::npos);
  EXPECT_NE(d->evidence.find("reads outside its inputs"), std::string::npos) << d->evidence;
  EXPECT_EQ(d->evidence.find("NaN the output held"), std::string::npos) << d->evidence;
}

// row = blockIdx.y * blockIdx.y * blockDim.y + threadIdx.y: right while the grid has at most 2
// blocks a side; beyond, some elements get no thread and keep their NaN.
TEST(DiagnoseSizes, RightWhileTheGridIsSmallSaysItInBlocks) {
  std::vector<CaseResult> cases{sized_case(1, Verdict::pass), sized_case(16, Verdict::pass)};
  for (const long long w : {33, 100, 257, 512}) {
    auto c = sized_case(w, Verdict::fail, true, w == 33 ? "border_wrong" : "nan_everywhere");
    c.nan_count = c.mismatches;
    c.error_map = map_right_top_left(w, 16, 32);
    cases.push_back(c);
  }
  const auto d = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(d), "size_fixed_in_code");
  EXPECT_NE(d->evidence.find("right at widths 1 and 16 (at most 1 block of 16x16 threads a "
                             "side), wrong at 33, 100, 257 and 512 (3 to 32 blocks a side)"),
            std::string::npos)
      << d->evidence;
  EXPECT_NE(d->evidence.find("still holds the NaN"), std::string::npos) << d->evidence;
  EXPECT_NE(d->evidence.find("the top-left 16x16, which the first block a side covers, is right"),
            std::string::npos)
      << d->evidence;
  EXPECT_NE(d->evidence.find("blockIdx.y * blockDim.y"), std::string::npos) << d->evidence;
  // Where a wrong output's first block is wrong too, the blocks are not blamed.
  cases.back().error_map = map_right_top_left(512, 16, 0);
  const auto unsure = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(unsure), "size_fixed_in_code");
  EXPECT_EQ(unsure->evidence.find("top-left"), std::string::npos) << unsure->evidence;
}

TEST(DiagnoseSizes, OutputsThatDifferBetweenRunsStayARace) {
  std::vector<CaseResult> cases{sized_case(32, Verdict::pass)};
  for (const long long w : {64, 96, 512})
    cases.push_back(sized_case(w, Verdict::fail, false, "race"));
  EXPECT_EQ(id_of(choose_check_diagnosis(cases)), "race");
  // One wrong width whose runs differ is enough: the failure is not the same at every run.
  cases[1] = sized_case(64, Verdict::fail, true, "nan_everywhere");
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
}

// #define WIDTH 1024 on a GPU: the loads past a smaller input land on the output the kernel is
// writing, so the wrong outputs change from run to run and each case says race. Right at the
// largest width only is no race all the same (seen on the H100, 2026-11-24).
TEST(DiagnoseSizes, RightOnlyAtTheLargestWidthIsNoRaceEvenIfTheOutputsChange) {
  std::vector<CaseResult> cases;
  for (const long long w : {32, 64, 96, 512})
    cases.push_back(sized_case(w, Verdict::fail, false, "race"));
  cases.push_back(sized_case(1024, Verdict::pass));
  const auto d = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(d), "size_fixed_in_code");
  EXPECT_NE(d->evidence.find("right at width 1024, wrong at the smaller widths"), std::string::npos)
      << d->evidence;
  EXPECT_NE(d->evidence.find("a race does not go away at the largest size"), std::string::npos)
      << d->evidence;
  EXPECT_NE(d->evidence.find("changed from run to run"), std::string::npos) << d->evidence;
  EXPECT_EQ(d->evidence.find("no race)"), std::string::npos) << d->evidence;
  // Not known whether they repeat: the same diagnosis, without the words about runs.
  for (auto& c : cases) {
    if (c.verdict == Verdict::fail) c.output_repeats = std::nullopt;
  }
  const auto unknown = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(unknown), "size_fixed_in_code");
  EXPECT_EQ(unknown->evidence.find("changed from run to run"), std::string::npos);
}

TEST(DiagnoseSizes, NeedsRightAndWrongWidthsAndRepeatsThatWereSeen) {
  // Wrong at every width: nothing says the size matters.
  std::vector<CaseResult> all_wrong;
  for (const long long w : {32, 64, 1024})
    all_wrong.push_back(sized_case(w, Verdict::fail, true, "nan_everywhere"));
  EXPECT_EQ(id_of(choose_check_diagnosis(all_wrong)), "nan_everywhere");
  // Right at the small width only, repeats not known (no experiments: under compute-sanitizer,
  // or a fault): a race is not ruled out.
  std::vector<CaseResult> unknown{sized_case(16, Verdict::pass),
                                  sized_case(64, Verdict::fail, std::nullopt)};
  EXPECT_EQ(id_of(diagnose_sizes(unknown)), "(none)");
  // A case without a width (not square): no sizes to compare.
  std::vector<CaseResult> shapeless{sized_case(1024, Verdict::pass), sized_case(64, Verdict::fail)};
  shapeless[0].width = 0;
  EXPECT_EQ(id_of(diagnose_sizes(shapeless)), "(none)");
  // The same width both right and wrong (integers and reals): not a matter of size.
  std::vector<CaseResult> both{sized_case(64, Verdict::pass), sized_case(64, Verdict::fail)};
  EXPECT_EQ(id_of(diagnose_sizes(both)), "(none)");
}

TEST(DiagnoseSizes, WidthsRightAndWrongOnBothSidesAreNotASizeFixedInTheCode) {
  // Right at 16 and 1024, wrong at 1, 33, 100 and 257: the grid rounded down.
  std::vector<CaseResult> cases{sized_case(16, Verdict::pass), sized_case(1024, Verdict::pass)};
  for (const long long w : {1, 33, 100, 257}) cases.push_back(sized_case(w, Verdict::fail));
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
}

// #define WIDTH 64 in a tiled kernel: right at 64 only, wrong at the smaller width (whose loads
// run past the inputs, and may change from run to run) and at the larger ones (same every run).
TEST(DiagnoseSizes, RightAtOneWidthBetweenWrongOnesIsASizeFixedInTheCode) {
  std::vector<CaseResult> cases{sized_case(32, Verdict::fail, false, "reads_outside_inputs"),
                                sized_case(64, Verdict::pass)};
  for (const long long w : {96, 256, 512})
    cases.push_back(sized_case(w, Verdict::fail, true, "nan_everywhere"));
  const auto d = choose_check_diagnosis(cases);
  ASSERT_EQ(id_of(d), "size_fixed_in_code");
  EXPECT_NE(d->evidence.find("right at width 64 only, wrong at the smaller width 32 and at the "
                             "larger widths 96, 256 and 512"),
            std::string::npos)
      << d->evidence;
  // A larger width whose runs differ: not the same at every run, no size named.
  cases[2].output_repeats = false;
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
}

// A constant is right at one width: right at two (64 and 96) between wrong ones is no constant.
TEST(DiagnoseSizes, RightAtTwoWidthsBetweenWrongOnesIsNoSizeFixedInTheCode) {
  std::vector<CaseResult> cases{sized_case(32, Verdict::fail, true, "nan_everywhere"),
                                sized_case(64, Verdict::pass), sized_case(96, Verdict::pass)};
  for (const long long w : {256, 512})
    cases.push_back(sized_case(w, Verdict::fail, true, "nan_everywhere"));
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
  cases.erase(cases.begin() + 2);  // right at 64 alone: named
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "size_fixed_in_code");
}

// Every case says race. The larger widths repeated; the smaller did not: a race is not ruled out
// there, so the cases' race stands. With the smaller width repeating too, the width is named.
TEST(DiagnoseSizes, RaceIsRuledOutOnlyWhereEveryWrongWidthRepeated) {
  std::vector<CaseResult> cases{sized_case(32, Verdict::fail, false, "race"),
                                sized_case(64, Verdict::pass)};
  for (const long long w : {96, 256}) cases.push_back(sized_case(w, Verdict::fail, true, "race"));
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
  EXPECT_EQ(id_of(choose_check_diagnosis(cases)), "race");
  cases[0].output_repeats = true;
  const auto d = diagnose_sizes(cases);
  ASSERT_EQ(id_of(d), "size_fixed_in_code");
  EXPECT_NE(d->evidence.find("three runs of each wrong width"), std::string::npos) << d->evidence;
}

// Right at 36 only, wrong at 20 and 100: the recorded tiles of 12 split them (36 is a multiple of
// 12, 20 and 100 are not): an edge mistake, not a constant width.
TEST(DiagnoseSizes, TheRecordedTileSplitsOneRightWidthFromTheWrongOnes) {
  std::vector<CaseResult> cases{sized_case(20, Verdict::fail, true, "nan_everywhere"),
                                sized_case(36, Verdict::pass),
                                sized_case(100, Verdict::fail, true, "nan_everywhere")};
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "size_fixed_in_code");  // no tile of 8, 16 or 32 does
  cases[2].error_map = map_right_top_left(100, 12, 0);
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
}

TEST(DiagnoseSizes, RightAtTheMultiplesOfATileIsAnEdgeMistake) {
  // Right at 32 and 64, wrong at 100 and 200: the partial tiles, not a fixed size.
  std::vector<CaseResult> cases{sized_case(32, Verdict::pass), sized_case(64, Verdict::pass),
                                sized_case(100, Verdict::fail, true, "border_wrong"),
                                sized_case(200, Verdict::fail, true, "nan_everywhere")};
  EXPECT_EQ(id_of(diagnose_sizes(cases)), "(none)");
}

TEST(DiagnoseSizes, AMistakeTheCasesNameEverywhereIsKept) {
  // A transposed product is right at width 1 only: the cases name it, the widths add nothing.
  std::vector<CaseResult> cases{sized_case(1, Verdict::pass)};
  for (const long long w : {16, 33, 100})
    cases.push_back(sized_case(w, Verdict::fail, true, "transposed_result"));
  cases.push_back(sized_case(257, Verdict::fail, true));  // undiagnosed: no vote either way
  EXPECT_EQ(id_of(choose_check_diagnosis(cases)), "transposed_result");
  // Named by one case only, it explains nothing about the others.
  cases[2].diagnosis = make_diagnosis("nan_everywhere", "case evidence");
  cases[3].diagnosis = make_diagnosis("nan_everywhere", "case evidence");
  EXPECT_EQ(id_of(choose_check_diagnosis(cases)), "size_fixed_in_code");
}

TEST(Diagnose, ASlowKernelIsNamedUncoalescedOnlyWhereItsAccessesWereMeasured) {
  Timing t;
  t.rate_unit = "GB/s";
  t.reference_name = "cudaMemcpy device to device";
  t.rate = 450;
  t.reference_rate = 3000;
  t.ratio = 0.15;
  t.threshold = 0.45;
  // The figure alone names no cause, however slow.
  const auto unmeasured = diagnose_speed(t, {});
  EXPECT_EQ(id_of(unmeasured), "slow_kernel");
  EXPECT_NE(unmeasured->evidence.find("not measured"), std::string::npos) << unmeasured->evidence;
  Evidence column{"uncoalesced_access",
                  "emulation",
                  "kernel.cu",
                  14,
                  "copy",
                  "kernel.cu:14 (copy): each warp's read of in touches 32.0 sectors",
                  32,
                  4};
  const auto measured = diagnose_speed(t, {column});
  EXPECT_EQ(id_of(measured), "uncoalesced_access");
  EXPECT_NE(measured->evidence.find("kernel.cu:14"), std::string::npos) << measured->evidence;
  EXPECT_NE(measured->evidence.find("15% of cudaMemcpy"), std::string::npos) << measured->evidence;
  t.ratio = 0.7;
  EXPECT_EQ(id_of(diagnose_speed(t, {column})), "(none)");  // passed
}

TEST(Diagnose, TheCostliestMeasuredFactIsThePrimaryAndTheOthersAlso) {
  Timing t;
  t.rate_unit = "GB/s";
  t.reference_name = "cudaMemcpy device to device";
  t.ratio = 0.2;
  t.threshold = 0.6;
  Evidence sectors{"uncoalesced_access",
                   "emulation",
                   "kernel.cu",
                   17,
                   "transpose",
                   "each warp's write of out touches 8.0 sectors",
                   8,
                   4};
  Evidence banks{"bank_conflict",
                 "emulation",
                 "kernel.cu",
                 23,
                 "transpose",
                 "reading tile: 32-way bank conflict",
                 32,
                 1};
  Evidence alias{"aliasing_write", "emulation", "kernel.cu", 30, "transpose", "both write", 2, 0};
  const auto d = diagnose_speed(t, {sectors, alias, banks});
  EXPECT_EQ(id_of(d), "bank_conflicts");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->also, std::vector<std::string>{"uncoalesced_access"});
  // Idle blocks are a fact of the emulation's small size, never the cause at the speed size; a
  // 2-way conflict is a cause however small.
  Evidence idle{"idle_blocks", "emulation", "kernel.cu", 40, "copy", "3 of 4 blocks idle", 3, 1};
  Evidence two_way{"bank_conflict", "emulation", "kernel.cu", 23, "copy", "2-way", 2, 1};
  EXPECT_EQ(id_of(diagnose_speed(t, {two_way, idle})), "bank_conflicts");
  EXPECT_EQ(id_of(diagnose_speed(t, {idle})), "slow_kernel");
  // Facts that say nothing about speed name nothing.
  EXPECT_EQ(id_of(diagnose_speed(t, {alias})), "slow_kernel");
}

TEST(Diagnose, SpeedReadingPlacesTheKernelUnderTheRoofline) {
  Timing t;
  t.rate_unit = "GFLOP/s";
  t.flops = 2.0 * 4096 * 4096 * 4096;
  t.bytes = 4.0 * 3 * 4096 * 4096;
  t.median_ms = t.flops / 9000e9 * 1e3;  // 9000 GFLOP/s
  t.memcpy_gbps = 3000;
  t.cublas_gflops = 51000;
  const auto text = speed_reading(t);
  EXPECT_NE(text.find("compute-bound"), std::string::npos) << text;
  EXPECT_NE(text.find("(18%)"), std::string::npos) << text;
  t.flops = 2.0 * 16384 * 16384;  // a matrix-vector product: 0.5 FLOP per byte
  t.bytes = 4.0 * 16384 * 16384;
  t.median_ms = t.flops / 600e9 * 1e3;
  const auto memory = speed_reading(t);
  EXPECT_NE(memory.find("memory-bound"), std::string::npos) << memory;
  EXPECT_NE(memory.find("1500 GFLOP/s"), std::string::npos) << memory;
}

TEST(Diagnose, EveryCatalogEntryMakesADiagnosis) {
  for (const auto& info : mistake_catalog()) {
    const auto d = make_diagnosis(info.id, "e");
    EXPECT_EQ(d.id, info.id);
    EXPECT_FALSE(d.summary.empty());
    EXPECT_EQ(d.handout.front(), '#');
  }
  EXPECT_THROW(mistake("no_such_mistake"), std::out_of_range);
  EXPECT_EQ(heading_anchor("Race: missing __syncthreads"), "race-missing-__syncthreads");
  EXPECT_EQ(heading_anchor("Grid too small (integer division)"), "grid-too-small-integer-division");
}

}  // namespace
}  // namespace harness
