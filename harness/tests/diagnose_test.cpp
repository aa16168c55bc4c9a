// The diagnosis rules on synthetic outputs: each test builds the output a known mistake gives and
// checks that the rule names it (and that a right output or another mistake is not named so).
#include "harness/diagnose.hpp"

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

DiagnosisInput input_for(const std::vector<float>& expected, const std::vector<float>& got,
                         long long rows, long long cols) {
  DiagnosisInput in;
  in.expected = expected;
  in.got = got;
  in.rows = rows;
  in.cols = cols;
  return in;
}

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
  EXPECT_EQ(id_of(diagnose_case(in)), "swapped_index");
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
  EXPECT_EQ(id_of(diagnose_case(in_v)), "swapped_index");
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
  EXPECT_NE(d->evidence.find("case 32"), std::string::npos) << d->evidence;
  EXPECT_NE(d->evidence.find("fits 3 of the 3"), std::string::npos) << d->evidence;
  EXPECT_EQ(id_of(choose_check_diagnosis(std::vector<CaseResult>(2))), "(none)");
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

TEST(DiagnoseSizes, NeedsRightAndWrongWidthsAndRepeatsThatWereSeen) {
  // Wrong at every width: nothing says the size matters.
  std::vector<CaseResult> all_wrong;
  for (const long long w : {32, 64, 1024})
    all_wrong.push_back(sized_case(w, Verdict::fail, true, "nan_everywhere"));
  EXPECT_EQ(id_of(choose_check_diagnosis(all_wrong)), "nan_everywhere");
  // Repeats not known (no experiments: under compute-sanitizer, or a fault).
  std::vector<CaseResult> unknown{sized_case(1024, Verdict::pass),
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

TEST(Diagnose, SpeedBelowHalfTheCopyOrTheNaiveKernelIsUncoalesced) {
  Timing t;
  t.rate_unit = "GB/s";
  t.reference_name = "cudaMemcpy device to device";
  t.rate = 450;
  t.reference_rate = 3000;
  t.ratio = 0.15;
  t.threshold = 0.45;
  EXPECT_EQ(id_of(diagnose_speed(t)), "uncoalesced_access");
  t.ratio = 0.5;
  t.threshold = 0.6;
  EXPECT_EQ(id_of(diagnose_speed(t)), "slow_kernel");
  t.ratio = 0.7;
  EXPECT_EQ(id_of(diagnose_speed(t)), "(none)");  // passed
  t.rate_unit = "GFLOP/s";
  t.reference_name = "naive kernel, one thread per element (16x16 blocks)";
  t.ratio = 0.17;
  t.threshold = 0.7;
  EXPECT_EQ(id_of(diagnose_speed(t)), "uncoalesced_access");
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
