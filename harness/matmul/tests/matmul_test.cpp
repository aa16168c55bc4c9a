// The host side of the matmul harness: the known answers are the ones the course documents print,
// and the tolerance accepts float32 results summed in any order but not real errors. No GPU needed.
#include "harness/matmul.hpp"
#include "harness/matmul_checks.hpp"
#include "harness/matmul_spec.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace harness {
namespace {

const KnownAnswer& find_answer(const std::vector<KnownAnswer>& answers, const std::string& part) {
  for (const auto& answer : answers) {
    if (answer.problem.name.find(part) != std::string::npos) return answer;
  }
  throw std::runtime_error("no known answer named " + part);
}

float at(const std::vector<float>& m, int cols, int row, int col) {
  return m[static_cast<size_t>(row) * cols + col];
}

TEST(KnownAnswers, MatchThePublishedEntries) {
  const auto answers = known_answers();
  const auto& graph = find_answer(answers, "10 vertices");
  EXPECT_EQ(at(graph.c, 10, 2, 9), 7);   // C to J
  EXPECT_EQ(at(graph.c, 10, 1, 2), 22);  // P(2,3), 1-based
  EXPECT_EQ(at(graph.c, 10, 4, 4), 10);  // P(5,5)
  EXPECT_EQ(at(graph.c, 10, 9, 9), 25);  // P(10,10)
  const auto& eight = find_answer(answers, "5 vertices");
  EXPECT_EQ(at(eight.c, 5, 0, 1), 208);  // A to B, length 8
  const auto& pascal = find_answer(answers, "Pascal 8x8");
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) EXPECT_EQ(at(pascal.c, 8, i, j), i == j ? 1 : 0);
  }
  EXPECT_EQ(at(find_answer(answers, "Pascal 8x8").problem.a, 8, 7, 3), 35);  // C(7,3)
}

// The answers printed in the documents agree with the harness's own reference.
TEST(KnownAnswers, AgreeWithTheReference) {
  for (const auto& answer : known_answers()) {
    SCOPED_TRACE(answer.problem.name);
    const auto expected = expected_product(answer.problem);
    EXPECT_TRUE(expected.tolerance.empty()) << "integer problems compare exactly";
    EXPECT_EQ(expected.c, answer.c);
  }
  for (const auto& answer : square_known_answers()) {
    EXPECT_EQ(answer.problem.shape.m, answer.problem.shape.n);
    EXPECT_EQ(answer.problem.shape.m, answer.problem.shape.k);
  }
}

// What a student's kernel computes: float32, summed left to right (or in tiles).
std::vector<float> float_product(const MatmulProblem& p, int tile) {
  const auto& s = p.shape;
  std::vector<float> c(static_cast<size_t>(s.m) * s.n);
  for (int i = 0; i < s.m; ++i) {
    for (int j = 0; j < s.n; ++j) {
      float sum = 0;
      for (int t = 0; t < s.k; t += tile) {
        float partial = 0;
        for (int l = t; l < std::min(s.k, t + tile); ++l) {
          partial += p.a[static_cast<size_t>(i) * s.k + l] * p.b[static_cast<size_t>(l) * s.n + j];
        }
        sum += partial;
      }
      c[static_cast<size_t>(i) * s.n + j] = sum;
    }
  }
  return c;
}

TEST(Tolerance, AcceptsFloatSumsInAnyOrder) {
  const auto problem = random_problem({24, 3000, 20}, Values::reals, 99);
  const auto expected = expected_product(problem);
  ASSERT_EQ(expected.tolerance.size(), expected.c.size());
  for (int tile : {1, 16, 3000}) {
    const auto got = float_product(problem, tile);
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_LE(std::fabs(got[i] - expected.c[i]), expected.tolerance[i]) << "tile " << tile;
    }
  }
}

// Dropping one term of the sum (an off-by-one in a loop) is far outside the tolerance at moderate
// k. (At k in the thousands the worst-case bound grows past a single term: there the integer
// inputs, compared exactly, are what catch an off-by-one.)
TEST(Tolerance, RejectsAMissingTerm) {
  const auto problem = random_problem({24, 200, 20}, Values::reals, 7);
  const auto expected = expected_product(problem);
  auto shortened = problem;
  const int k = problem.shape.k;
  for (int i = 0; i < problem.shape.m; ++i) shortened.a[static_cast<size_t>(i) * k + k - 1] = 0;
  const auto wrong = float_product(shortened, 1);
  int caught = 0;
  for (size_t i = 0; i < wrong.size(); ++i) {
    caught += std::fabs(wrong[i] - expected.c[i]) > expected.tolerance[i];
  }
  EXPECT_GT(caught, static_cast<int>(wrong.size()) * 95 / 100);
}

TEST(RandomProblem, IntegersAreExactAndSeeded) {
  const auto p = random_problem({5, 7, 3}, Values::integers, 1);
  EXPECT_EQ(p.a.size(), 35u);
  EXPECT_EQ(p.b.size(), 21u);
  EXPECT_EQ(p.a, random_problem({5, 7, 3}, Values::integers, 1).a);
  EXPECT_NE(p.a, random_problem({5, 7, 3}, Values::integers, 2).a);
  EXPECT_EQ(MatmulShape({70, 64, 200}).label(), "70x64 * 64x200");
  EXPECT_DOUBLE_EQ(MatmulShape({2, 3, 4}).flops(), 48);
}

CheckSpec spec_with(const nlohmann::json& params) {
  CheckSpec spec;
  spec.id = "Tiled.Shapes";
  spec.kind = "correctness";
  spec.source = "spec.json";
  spec.params = params;
  spec.dimensions = {"m", "k", "n"};
  return spec;
}

// The SpecError's message for reading `params`' sizes as shapes (or "accepted").
std::string shapes_error(const nlohmann::json& params, int max_size) {
  try {
    matmul_shapes(spec_with(params), max_size);
  } catch (const SpecError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(MatmulSpec, ReadsShapesAsMkn) {
  const auto spec = spec_with(nlohmann::json::parse(R"({"sizes": [[7, 13, 11], [1, 1, 1]]})"));
  const auto shapes = matmul_shapes(spec, 32);
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].label(), "7x13 * 13x11");
  EXPECT_EQ(shapes[1].label(), "1x1 * 1x1");
  const auto one = spec_with(nlohmann::json::parse(R"({"sizes": [[2047, 2049, 2050]]})"));
  EXPECT_EQ(matmul_shape(one, 4096).label(), "2047x2049 * 2049x2050");
  EXPECT_THROW(matmul_shape(spec, 4096), SpecError) << "two shapes, not one";
}

TEST(MatmulSpec, ShapeErrorsNameFileCheckAndKey) {
  using nlohmann::json;
  EXPECT_EQ(shapes_error(json::parse(R"({"sizes": [[1, 2]]})"), 32),
            "spec.json: check 'Tiled.Shapes': 'sizes' holds sizes [m, k, n], got [1,2]");
  EXPECT_EQ(shapes_error(json::parse(R"({"sizes": [[1, 33, 2]]})"), 32),
            "spec.json: check 'Tiled.Shapes': 'sizes' gives k = 33; it runs from 1 to 32");
  EXPECT_EQ(shapes_error(json::parse(R"({"sizes": [[0, 3, 2]]})"), 32),
            "spec.json: check 'Tiled.Shapes': 'sizes' gives m = 0; it runs from 1 to 32");
  EXPECT_EQ(shapes_error(json::parse(R"({"sizes": [[65536, 1, 32768]]})"), 1 << 20),
            "spec.json: check 'Tiled.Shapes': 'sizes': [65536, 1, 32768] is too large for the "
            "contract (int indices)");
  EXPECT_EQ(shapes_error(json::parse(R"({"sizes": []})"), 32),
            "spec.json: check 'Tiled.Shapes': 'sizes' is empty");
  EXPECT_NE(shapes_error(json::parse(R"({})"), 32).find("needs 'sizes'"), std::string::npos);
  auto rows_cols = spec_with(json::parse(R"({"sizes": [[1, 2]]})"));
  rows_cols.dimensions = {"rows", "cols"};
  EXPECT_THROW(matmul_shapes(rows_cols, 32), SpecError) << "the spec's dimensions are not m, k, n";
}

TEST(MatmulSpec, ValuesDefaultToIntegers) {
  using nlohmann::json;
  EXPECT_EQ(spec_values(spec_with(json::object())), std::vector<Values>{Values::integers});
  EXPECT_EQ(spec_values(spec_with(json::parse(R"({"values": ["integers", "reals"]})"))),
            (std::vector<Values>{Values::integers, Values::reals}));
  EXPECT_THROW(spec_values(spec_with(json::parse(R"({"values": ["halves"]})"))), SpecError);
  EXPECT_STREQ(values_name(Values::integers), "integers");
  EXPECT_STREQ(values_name(Values::reals), "reals");
}

TEST(MatmulChecks, CallsAreWrittenAsTheHandoutsDo) {
  const auto square = square_matmul("matmul_tiled", nullptr);
  EXPECT_EQ(square.call(MatmulShape::square(64)), "matmul_tiled(M, N, P, 64)");
  const auto shaped = shaped_matmul("matmul_tiled_any", nullptr);
  EXPECT_EQ(shaped.call({70, 64, 200}), "matmul_tiled_any(A, B, C, 70, 64, 200)");
  EXPECT_EQ(squares({1, 33}).size(), 2u);
  EXPECT_EQ(squares({1, 33})[1].label(), "33x33 * 33x33");
}

TEST(MatmulChecks, WrongProductReasonsKeepEachLabsWording) {
  const auto at_width = WrongProductReasons::at_width(2048);
  EXPECT_EQ(at_width.launch_not_graded,
            "the product at width 2048 is wrong (or writes outside P), so its launch is not "
            "graded: fix correctness first");
  EXPECT_EQ(at_width.before_timing,
            "the product at width 2048 is wrong (or writes outside P), so its speed is not "
            "graded: fix correctness first");
  EXPECT_EQ(at_width.in_timed_runs, "the product at width 2048 was wrong in the timed runs");
  const auto of_shape = WrongProductReasons::of_shape({70, 64, 200});
  EXPECT_EQ(of_shape.launch_not_graded,
            "the 70x64 * 64x200 product is wrong, so its launches are not graded: fix "
            "correctness first");
  EXPECT_EQ(of_shape.before_timing,
            "the 70x64 * 64x200 product is wrong, so its speed is not graded");
  EXPECT_EQ(of_shape.in_timed_runs, "the 70x64 * 64x200 product was wrong in the timed runs");
}

// A diagnosis says "the result is Aᵀ·B" in the letters of the lab's contract.
TEST(MatmulChecks, TheDiagnosisNamesTheOperandsAsTheCallDoes) {
  const auto problem = random_problem({7, 13, 11}, Values::integers, 1);
  const auto shaped =
      product_inputs(problem, shaped_matmul("matmul_tiled_any", nullptr).call(problem.shape));
  EXPECT_EQ(shaped.first, "A");
  EXPECT_EQ(shaped.second, "B");
  EXPECT_EQ(shaped.m, 7);
  EXPECT_EQ(shaped.k, 13);
  EXPECT_EQ(shaped.n, 11);
  EXPECT_EQ(shaped.a.size(), problem.a.size());
  const auto square = product_inputs(problem, "matmul_tiled(M, N, P, 32)");
  EXPECT_EQ(square.first, "M");
  EXPECT_EQ(square.second, "N");
  const auto plain = product_inputs(problem, "no call here");
  EXPECT_EQ(plain.first, "M");
  EXPECT_EQ(plain.second, "N");
}

}  // namespace
}  // namespace harness
