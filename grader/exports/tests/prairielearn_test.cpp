// PrairieLearn's results.json: the documented fields, a score in [0, 1], not gradable without a
// build, the error maps as images, hidden checks kept out of sight.
#include "exports/prairielearn.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "class_fixture.hpp"

namespace exports {
namespace {

using contract::Verdict;

std::set<std::string> keys(const nlohmann::json& object) {
  std::set<std::string> out;
  for (const auto& [key, value] : object.items()) out.insert(key);
  return out;
}

// The documented base64 alphabet, decoded (for looking inside an image's data: URL).
std::string base64_decoded(const std::string& text) {
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char ch : text) {
    if (ch == '=') break;
    bits = (bits << 6) | static_cast<unsigned>(alphabet.find(ch));
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += static_cast<char>((bits >> count) & 0xFF);
    }
  }
  return out;
}

// A failed product whose wrong elements form the right half: a map of 2 x 2 cells.
contract::CheckRecord wrong_half(const std::string& check, const std::string& name) {
  auto record = testing::record(check, Verdict::fail, "wrong at (0, 32)", 0);
  contract::CaseResult wrong;
  wrong.name = name;
  wrong.verdict = Verdict::fail;
  contract::ErrorMap map;
  map.rows = 64;
  map.cols = 64;
  map.cell_rows = 32;
  map.cell_cols = 32;
  map.grid_rows = 2;
  map.grid_cols = 2;
  map.wrong_fraction = {0, 1, 0, 1};
  wrong.error_map = map;
  record.cases.push_back(wrong);
  return record;
}

class PrairieLearn : public ::testing::Test {
 protected:
  contract::LabSpec spec = testing::make_spec();
  std::vector<StudentOutcome> outcomes = testing::make_class(spec);
};

TEST_F(PrairieLearn, GradedHasTheDocumentedFieldsAndAScoreBetweenZeroAndOne) {
  for (const auto& outcome : outcomes) {
    if (!outcome.grade) continue;
    SCOPED_TRACE(outcome.student);
    const auto results = prairielearn_results(spec, outcome);
    EXPECT_TRUE(results["gradable"].get<bool>());
    const double score = results["score"].get<double>();
    EXPECT_GE(score, 0);
    EXPECT_LE(score, 1);
    ASSERT_EQ(results["tests"].size(), spec.checks.size());
    double points = 0;
    for (const auto& test : results["tests"]) {
      EXPECT_EQ(keys(test), (std::set<std::string>{"name", "description", "points", "max_points",
                                                   "message", "output"}));
      EXPECT_LE(test["points"].get<double>(), test["max_points"].get<double>());
      points += test["points"].get<double>();
    }
    EXPECT_DOUBLE_EQ(score, points / spec.total_points());
    EXPECT_NO_THROW((void)results.dump());
  }
}

TEST_F(PrairieLearn, OneTestPerCheckWithItsPoints) {
  const auto results = prairielearn_results(spec, outcomes[1]);  // the <script> student
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 5.0 / 20.0);
  EXPECT_EQ(results["message"], "5 of 20 points");
  const auto& first = results["tests"][0];
  EXPECT_EQ(first["name"], "matmul_tiled is exact (Tiled.Correctness)");
  EXPECT_DOUBLE_EQ(first["points"].get<double>(), 5);
  EXPECT_DOUBLE_EQ(first["max_points"].get<double>(), 10);
  EXPECT_EQ(first["message"], "fail");
  EXPECT_NE(first["output"].get<std::string>().find("<img src=x onerror=alert(1)>"),
            std::string::npos)
      << "plain text, as written";
}

// A submission that does not build takes no attempt: not gradable, with the compiler's words.
TEST_F(PrairieLearn, AFailedBuildIsNotGradableAndSaysWhatTheCompilerSaid) {
  auto outcome = testing::ungraded("frank", "compile error", "kernel.cu does not compile");
  outcome.build_output = "kernel.cu:25:73: error: 'PValue' was not declared in this scope";
  const auto results = prairielearn_results(spec, outcome);
  EXPECT_EQ(results["gradable"], false);
  EXPECT_FALSE(results.contains("score"));
  EXPECT_EQ(results["message"], "compile error: kernel.cu does not compile");
  ASSERT_EQ(results["format_errors"].size(), 1u);
  EXPECT_NE(results["output"].get<std::string>().find("'PValue' was not declared"),
            std::string::npos);
  const auto missing = prairielearn_results(
      spec, testing::ungraded("grace", "no kernel file",
                              "expected labs/lab9/kernel.cu; found kernal.cu"));
  EXPECT_EQ(missing["gradable"], false);
}

TEST_F(PrairieLearn, BonusPointsNeverTakeTheScoreAboveOne) {
  auto document = nlohmann::json::parse(R"({
    "lab": "lab9", "title": "t",
    "checks": [
      {"id": "A.Base", "kind": "correctness", "title": "a", "points": 10},
      {"id": "A.Bonus", "kind": "speed", "title": "b", "points": 5, "bonus": true}
    ]})");
  const auto bonus = contract::parse_spec(document, "spec.json");
  const auto results =
      prairielearn_results(bonus, testing::graded(bonus, "alice",
                                                  {testing::record("A.Base", Verdict::pass),
                                                   testing::record("A.Bonus", Verdict::pass)}));
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 1.0);
  EXPECT_EQ(results["message"], "15 of 10 points");
}

TEST_F(PrairieLearn, TheErrorMapIsAnSvgImage) {
  const auto results = prairielearn_results(
      spec, testing::graded(spec, "dan", {wrong_half("Tiled.Correctness", "64 x 64")}));
  ASSERT_TRUE(results.contains("images")) << results.dump(1);
  ASSERT_EQ(results["images"].size(), 1u);
  const auto& image = results["images"][0];
  EXPECT_EQ(image["label"], "Tiled.Correctness: 64 x 64: wrong elements");
  const std::string url = image["url"];
  const std::string prefix = "data:image/svg+xml;base64,";
  ASSERT_EQ(url.rfind(prefix, 0), 0u) << url.substr(0, 40);
  const std::string svg = base64_decoded(url.substr(prefix.size()));
  EXPECT_EQ(svg.rfind(R"(<svg xmlns="http://www.w3.org/2000/svg" )", 0), 0u) << svg.substr(0, 80);
  EXPECT_NE(svg.find("2 of 4 cells have wrong elements"), std::string::npos) << svg;
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
  // A passing student has no picture to show.
  EXPECT_FALSE(prairielearn_results(spec, outcomes[0]).contains("images"));
}

// One map per check (a check's other cases mostly repeat its first), at most kMaxImages.
TEST_F(PrairieLearn, OneImagePerCheckAndNoMoreThanTheMost) {
  nlohmann::json checks = nlohmann::json::array();
  std::vector<contract::CheckRecord> records;
  for (int i = 0; i < 6; ++i) {
    const std::string id = "Tiled.Check" + std::to_string(i);
    checks.push_back({{"id", id}, {"kind", "correctness"}, {"title", id}, {"points", 1}});
    auto record = wrong_half(id, "first");
    record.cases.push_back(wrong_half(id, "second").cases[0]);
    records.push_back(record);
  }
  const auto many = contract::parse_spec(
      nlohmann::json{{"lab", "lab9"}, {"title", "t"}, {"checks", checks}}, "spec.json");
  const auto results = prairielearn_results(many, testing::graded(many, "dan", records));
  ASSERT_EQ(results["images"].size(), kMaxImages);
  EXPECT_EQ(results["images"][0]["label"], "Tiled.Check0: first: wrong elements");
  EXPECT_EQ(results["images"][1]["label"], "Tiled.Check1: first: wrong elements");
  EXPECT_LT(results.dump().size(), 1u << 20) << "PrairieLearn's limit";
}

// A map too large for the budget is left out; a smaller one of a later check still shows.
TEST_F(PrairieLearn, ImagesStayWithinTheirBudget) {
  auto huge = wrong_half("Tiled.Correctness", "4096 x 4096");
  auto& map = *huge.cases[0].error_map;
  map.rows = map.cols = 4096;
  map.grid_rows = map.grid_cols = 256;
  map.cell_rows = map.cell_cols = 16;
  map.wrong_fraction.assign(256 * 256, 0);
  for (std::size_t i = 0; i < map.wrong_fraction.size(); i += 2) map.wrong_fraction[i] = 0.5f;
  const auto results = prairielearn_results(
      spec, testing::graded(spec, "dan", {huge, wrong_half("Tiled.SharedMemory", "64 x 64")}));
  ASSERT_EQ(results["images"].size(), 1u) << results.dump().size();
  EXPECT_EQ(results["images"][0]["label"], "Tiled.SharedMemory: 64 x 64: wrong elements");
  EXPECT_LE(results["images"][0]["url"].get<std::string>().size(), kMaxImageBytes);
}

// "hidden" keeps a check's points (the score is the score) but shows nothing of it.
TEST_F(PrairieLearn, AHiddenCheckShowsItsPointsButNotItsOutput) {
  auto document = nlohmann::json::parse(R"({
    "lab": "lab9", "title": "t",
    "checks": [
      {"id": "Tiled.Correctness", "kind": "correctness", "title": "a", "points": 10,
       "visibility": "hidden"},
      {"id": "Tiled.Other", "kind": "correctness", "title": "b", "points": 10}
    ]})");
  const auto hiding = contract::parse_spec(document, "spec.json");
  const auto results = prairielearn_results(
      hiding, testing::graded(hiding, "dan",
                              {wrong_half("Tiled.Correctness", "64 x 64"),
                               testing::record("Tiled.Other", Verdict::pass)}));
  EXPECT_EQ(results["tests"][0]["output"], "");
  EXPECT_EQ(results["tests"][0]["message"], "hidden until the course shows it");
  EXPECT_FALSE(results.contains("images"));
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 0.5);
}

}  // namespace
}  // namespace exports
