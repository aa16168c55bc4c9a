#include "exports/gradebook_csv.hpp"

#include <gtest/gtest.h>

#include "class_fixture.hpp"
#include "csv_rows.hpp"
#include "exports/text.hpp"

namespace exports {
namespace {

using testing::parse_csv;

class GradebookCsv : public ::testing::Test {
 protected:
  contract::LabSpec spec = testing::make_spec();
  std::vector<StudentOutcome> outcomes = testing::make_class(spec);
  std::string csv = gradebook_csv(spec, outcomes);
  std::vector<std::vector<std::string>> rows = parse_csv(csv);
};

TEST_F(GradebookCsv, EveryRowHasEveryColumn) {
  ASSERT_EQ(rows.size(), outcomes.size() + 1);
  const std::vector<std::string> header{
      "student", "Tiled.Correctness", "Tiled.SharedMemory", "Tiled.Speed", "total", "max", "status",
      "report"};
  EXPECT_EQ(rows[0], header);
  for (const auto& row : rows) EXPECT_EQ(row.size(), header.size());
}

TEST_F(GradebookCsv, HostileNamesComeBackQuotedAndGuarded) {
  EXPECT_EQ(rows[2][0], testing::kScriptName);  // plain text in a CSV; the HTML page escapes it
  EXPECT_EQ(rows[3][0], "'" + testing::kFormulaName);
  EXPECT_EQ(rows[4][0], "Zo\u00eb \"Q\", Jr. second line");  // one line: names are one line
  EXPECT_EQ(rows[5][0], "badbytes\uFFFD end");
  EXPECT_EQ(rows[6][0], "'-2+3");
  EXPECT_EQ(rows[7][0], "'@SUM(A1)");
  EXPECT_EQ(rows[8][0], "\u674e\u96f7 \U0001F680");
  for (const auto& row : rows) {
    for (const auto& cell : row) {
      if (!cell.empty()) {
        EXPECT_EQ(std::string_view("=+-@\t").find(cell[0]), std::string_view::npos) << cell;
      }
    }
  }
  EXPECT_EQ(text::clean(csv), [&] {
    std::string no_cr;
    for (char c : csv)
      if (c != '\r') no_cr += c;
    return no_cr;
  }()) << "only CRLF line ends, no other control bytes, valid UTF-8";
}

TEST_F(GradebookCsv, PointsTotalsAndStatuses) {
  EXPECT_EQ(rows[1], (std::vector<std::string>{"alice", "10", "5", "5", "20", "20", "graded",
                                               "reports/alice/report.html"}));
  EXPECT_EQ(rows[2][1], "5");  // half of the sizes right
  EXPECT_EQ(rows[2][4], "5");
  // Ungraded: empty check cells, total 0, the status says why.
  EXPECT_EQ(rows[3], (std::vector<std::string>{"'" + testing::kFormulaName, "", "", "", "0", "20",
                                               "compile error", ""}));
  EXPECT_EQ(rows[5][6], "timed out");
  EXPECT_EQ(rows[7][6], "crashed");
}

// Under the CPU emulation a speed check earns 0 without failing: its cell says "not measured",
// not a 0 that reads as a failure; totals stay numbers. On a GPU no cell says so.
TEST(GradebookCsvEmulated, SpeedCellsSayNotMeasured) {
  const auto spec = testing::make_spec();
  const auto rows = parse_csv(gradebook_csv(spec, testing::make_emulated_class(spec)));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[1], (std::vector<std::string>{"alice", "10", "5", "not measured", "15", "20",
                                               "graded", "reports/alice/report.html"}));
  EXPECT_EQ(rows[2][0], testing::kScriptName);
  EXPECT_EQ(rows[2][3], "not measured");
  EXPECT_EQ(rows[2][4], "10");
  EXPECT_EQ(rows[3][3], "") << "a student without a grade has no verdicts";
  const auto on_gpu = testing::make_spec();
  EXPECT_EQ(gradebook_csv(on_gpu, testing::make_class(on_gpu)).find("not measured"),
            std::string::npos);
}

// A speed beyond the GPU's ceiling earned 0, but the cell says why, so that the instructor sees
// the kernel needs a look; the total stays a number.
TEST(GradebookCsvImplausible, TheSpeedCellFlagsAnImplausibleSpeed) {
  const auto spec = testing::make_spec();
  const auto rows = parse_csv(gradebook_csv(spec, testing::make_implausible_class(spec)));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[1][3], "5") << "alice's honest pass";
  EXPECT_EQ(rows[2], (std::vector<std::string>{"mallory", "10", "5", "implausible speed", "15",
                                               "20", "graded", "reports/mallory/report.html"}));
  const auto honest = testing::make_spec();
  EXPECT_EQ(gradebook_csv(honest, testing::make_class(honest)).find("implausible"),
            std::string::npos);
}

TEST(GradebookCsvEmpty, HeaderOnly) {
  const auto spec = testing::make_spec();
  EXPECT_EQ(gradebook_csv(spec, {}),
            "student,Tiled.Correctness,Tiled.SharedMemory,Tiled.Speed,total,max,status,report\r\n");
}

}  // namespace
}  // namespace exports
