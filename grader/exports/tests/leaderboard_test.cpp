#include "exports/leaderboard.hpp"

#include <gtest/gtest.h>

#include "exports/gradescope.hpp"

namespace exports {
namespace {

contract::LabSpec race_spec() {
  return contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab8", "title": "Race to cuBLAS",
    "checks": [
      {"id": "Sgemm.Integers", "kind": "correctness", "title": "exact", "points": 40},
      {"id": "Sgemm.ShareAt4096", "kind": "speed", "title": "4096", "points": 40,
       "full_points_at_ratio": 0.75, "leaderboard": "% of cuBLAS at 4096^3"},
      {"id": "Sgemm.ShareTall", "kind": "speed", "title": "tall", "points": 20,
       "full_points_at_ratio": 0.75, "leaderboard": "% of cuBLAS, tall"}
    ]})"),
                              "race spec");
}

contract::CheckRecord share_record(const std::string& check, contract::Verdict verdict,
                                   double ratio) {
  contract::CheckRecord r;
  r.lab = "lab8";
  r.check = check;
  r.kind = "speed";
  r.verdict = verdict;
  r.fraction = std::min(1.0, ratio / 0.75);
  contract::Timing t;
  t.ratio = ratio;
  t.reference_name = "cuBLAS SGEMM (FP32)";
  r.timing = t;
  return r;
}

StudentOutcome student(const contract::LabSpec& spec, std::string name,
                       std::vector<contract::CheckRecord> records) {
  StudentOutcome o;
  o.student = std::move(name);
  o.status = "graded";
  o.grade = contract::grade_lab(spec, std::move(records));
  return o;
}

class Leaderboard : public ::testing::Test {
 protected:
  contract::LabSpec spec = race_spec();
  std::vector<StudentOutcome> outcomes{
      student(spec, "bob",
              {share_record("Sgemm.ShareAt4096", contract::Verdict::pass, 0.42),
               share_record("Sgemm.ShareTall", contract::Verdict::pass, 0.40)}),
      student(spec, "<b>eve</b>",
              {share_record("Sgemm.ShareAt4096", contract::Verdict::inconclusive, 0.99)}),
      student(spec, "alice",
              {share_record("Sgemm.ShareAt4096", contract::Verdict::pass, 0.848),
               share_record("Sgemm.ShareTall", contract::Verdict::pass, 0.854)}),
      student(spec, "carol",
              {share_record("Sgemm.ShareAt4096", contract::Verdict::pass, 0.42),
               share_record("Sgemm.ShareTall", contract::Verdict::pass, 0.50)}),
      StudentOutcome{"dave", "compile error", "kernel.cu(3): error", std::nullopt, ""},
  };
};

TEST_F(Leaderboard, ColumnsAreTheSpecsLeaderboardChecksInOrder) {
  const auto columns = leaderboard_columns(spec);
  ASSERT_EQ(columns.size(), 2u);
  EXPECT_EQ(columns[0].check->id, "Sgemm.ShareAt4096");
  EXPECT_EQ(columns[1].name, "% of cuBLAS, tall");
}

TEST_F(Leaderboard, OnlyJudgedTimingsCount) {
  EXPECT_DOUBLE_EQ(*leaderboard_share(outcomes[2], "Sgemm.ShareAt4096"), 0.848);
  EXPECT_FALSE(leaderboard_share(outcomes[1], "Sgemm.ShareAt4096"));  // inconclusive
  EXPECT_FALSE(leaderboard_share(outcomes[1], "Sgemm.ShareTall"));    // did not run
  EXPECT_FALSE(leaderboard_share(outcomes[4], "Sgemm.ShareAt4096"));  // not graded
}

TEST_F(Leaderboard, GradescopeEntriesNameValueOrder) {
  const auto entries = gradescope_leaderboard(spec, outcomes[2]);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["name"], "% of cuBLAS at 4096^3");
  EXPECT_DOUBLE_EQ(entries[0]["value"].get<double>(), 84.8);
  EXPECT_EQ(entries[0]["order"], "desc");
  EXPECT_DOUBLE_EQ(entries[1]["value"].get<double>(), 85.4);
  // Not measured: 0, the bottom of a descending board.
  EXPECT_DOUBLE_EQ(gradescope_leaderboard(spec, outcomes[1])[0]["value"].get<double>(), 0.0);

  const auto results = gradescope_results(spec, outcomes[2]);
  ASSERT_TRUE(results.contains("leaderboard"));
  EXPECT_EQ(results["leaderboard"], entries);
  // Scored by share: 84.8% of cuBLAS is past 75%, full points; 85.4% likewise.
  EXPECT_DOUBLE_EQ(results["score"].get<double>(), 60.0);
}

TEST_F(Leaderboard, NoLeaderboardKeyWithoutLeaderboardChecks) {
  const auto plain = contract::parse_spec(nlohmann::json::parse(R"({"lab": "lab1", "title": "t",
    "checks": [{"id": "A.B", "kind": "speed", "title": "t", "points": 1}]})"),
                                          "plain");
  EXPECT_TRUE(gradescope_leaderboard(plain, outcomes[0]).empty());
  EXPECT_FALSE(gradescope_results(plain, outcomes[0]).contains("leaderboard"));
}

TEST_F(Leaderboard, RanksByFirstColumnThenOthersThenName) {
  const auto rows = rank_class(spec, outcomes);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].outcome->student, "alice");
  EXPECT_EQ(rows[0].rank, 1);
  EXPECT_EQ(rows[1].outcome->student, "carol");  // ties bob at 4096^3, faster on the tall shape
  EXPECT_EQ(rows[1].rank, 2);
  EXPECT_EQ(rows[2].outcome->student, "bob");
  EXPECT_EQ(rows[2].rank, 2);  // same share at 4096^3: same rank
  EXPECT_EQ(rows[3].rank, 0);  // unranked: "<b>eve</b>" and dave, by name
  EXPECT_EQ(rows[3].outcome->student, "<b>eve</b>");
  EXPECT_EQ(rows[4].outcome->student, "dave");
}

// mallory's 350% of cuBLAS is beyond the GPU's FP32 peak (verdict implausible); trent's record
// says pass, but its rate is above its own ceiling. Neither is ranked, and the page flags both.
class LeaderboardImplausible : public Leaderboard {
 protected:
  static contract::CheckRecord beyond_ceiling(contract::Verdict verdict) {
    auto r = share_record("Sgemm.ShareAt4096", verdict, 3.5);
    r.timing->rate_unit = "GFLOP/s";
    r.timing->rate = 90100;
    r.timing->ceiling = 66900;
    r.timing->ceiling_name = "this GPU's FP32 peak";
    return r;
  }
  void SetUp() override {
    outcomes.push_back(student(spec, "mallory",
                               {beyond_ceiling(contract::Verdict::implausible),
                                share_record("Sgemm.ShareTall", contract::Verdict::pass, 0.60)}));
    outcomes.push_back(student(spec, "trent", {beyond_ceiling(contract::Verdict::pass)}));
  }
};

TEST_F(LeaderboardImplausible, AFigureBeyondTheCeilingIsNeverRanked) {
  EXPECT_FALSE(leaderboard_share(outcomes[5], "Sgemm.ShareAt4096"));
  EXPECT_TRUE(leaderboard_implausible(outcomes[5], "Sgemm.ShareAt4096"));
  EXPECT_DOUBLE_EQ(*leaderboard_share(outcomes[5], "Sgemm.ShareTall"), 0.60);
  EXPECT_FALSE(leaderboard_implausible(outcomes[5], "Sgemm.ShareTall"));
  EXPECT_FALSE(leaderboard_share(outcomes[6], "Sgemm.ShareAt4096")) << "a pass past its ceiling";
  EXPECT_TRUE(leaderboard_implausible(outcomes[6], "Sgemm.ShareAt4096"));
  EXPECT_FALSE(leaderboard_implausible(outcomes[2], "Sgemm.ShareAt4096")) << "alice";

  const auto rows = rank_class(spec, outcomes);
  ASSERT_EQ(rows.size(), 7u);
  EXPECT_EQ(rows[0].outcome->student, "alice") << "350% does not top the board";
  for (const auto& row : rows) {
    if (row.outcome->student != "mallory" && row.outcome->student != "trent") continue;
    EXPECT_EQ(row.rank, 0) << row.outcome->student;
    ASSERT_EQ(row.implausible.size(), 2u);
    EXPECT_TRUE(row.implausible[0]) << row.outcome->student;
  }
  EXPECT_DOUBLE_EQ(gradescope_leaderboard(spec, outcomes[5])[0]["value"].get<double>(), 0.0);

  const auto page = leaderboard_html(spec, outcomes, "2026-11-23");
  EXPECT_EQ(page.find("350.0%"), std::string::npos);
  const auto mallory = page.find(">mallory</th>");
  ASSERT_NE(mallory, std::string::npos);
  const auto row = page.substr(mallory, page.find("</tr>", mallory) - mallory);
  EXPECT_NE(row.find(R"(<span class="implausible">implausible speed</span>)"), std::string::npos)
      << row;
  EXPECT_NE(row.find("60.0%"), std::string::npos) << row;
  EXPECT_NE(page.find(R"(<tr><td class="num">&#8211;</td><th scope="row">mallory</th>)"),
            std::string::npos);
}

TEST_F(Leaderboard, ClassPageIsEscapedAndSelfContained) {
  const auto page = leaderboard_html(spec, outcomes, "2026-11-23");
  EXPECT_NE(page.find("&lt;b&gt;eve&lt;/b&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<b>eve</b>"), std::string::npos);
  EXPECT_NE(page.find("84.8%"), std::string::npos);
  EXPECT_NE(page.find("cuBLAS SGEMM (FP32)"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_LT(page.find("alice"), page.find("carol"));
  EXPECT_EQ(page, leaderboard_html(spec, outcomes, "2026-11-23"));
}

}  // namespace
}  // namespace exports
