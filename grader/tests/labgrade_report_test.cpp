// `labgrade report`: from records to an HTML file and a one-line summary, robust to bad input.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using grader_test::run_shell;
using grader_test::scratch;
using grader_test::write_file;

std::string read_all(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(LabgradeReport, WritesTheReportAndTheScoreLine) {
  const auto dir = scratch("report");
  write_file(dir / "spec.json", grader_test::kSpec);
  std::filesystem::create_directories(dir / "results");
  write_file(dir / "results" / "Fake.Correctness.json",
             R"({"schema": 1, "lab": "lab1", "check": "Fake.Correctness", "verdict": "fail",
                 "fraction": 0.5, "reason": "<script>alert(1)</script>"})");
  const auto r =
      run_shell(std::string(LABGRADE_PATH) + " report --spec " + (dir / "spec.json").string() +
                " --results " + (dir / "results").string() + " --out " +
                (dir / "out/lab1.html").string() + " --summary " + (dir / "summary.txt").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("5 / 10 points"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("lab1.html"), std::string::npos) << r.output;
  const auto html = read_all(dir / "out/lab1.html");
  EXPECT_EQ(html.find("<script>alert(1)</script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  EXPECT_NE(read_all(dir / "summary.txt").find("5 / 10 points"), std::string::npos);
}

// Records from the CPU emulation: the report shows the spec's emulation titles (the sizes that
// ran), and the score line says that speed needs a GPU; the points are those of any backend.
TEST(LabgradeReport, AnEmulatedRunShowsItsTitlesAndWhatItCouldEarn) {
  const auto dir = scratch("emulated");
  write_file(dir / "spec.json", R"({
    "lab": "lab1", "title": "Fake lab", "dimensions": ["width"],
    "checks": [
      {"id": "Fake.Large", "kind": "correctness", "title": "right at 2048", "points": 10,
       "sizes": [[2048]], "emulation": {"sizes": [[768]], "title": "right at 768"}},
      {"id": "Fake.Speed", "kind": "speed", "title": "fast at 2048", "points": 5,
       "sizes": [[2048]]}
    ]})");
  std::filesystem::create_directories(dir / "results");
  write_file(dir / "results" / "Fake.Large.json",
             R"json({"schema": 1, "lab": "lab1", "check": "Fake.Large", "verdict": "pass",
                     "backend": "emulation: CPU emulation (2 threads)"})json");
  write_file(dir / "results" / "Fake.Speed.json",
             R"json({"schema": 1, "lab": "lab1", "check": "Fake.Speed", "verdict": "not_measured",
                     "backend": "emulation: CPU emulation (2 threads)"})json");
  const auto r = run_shell(std::string(LABGRADE_PATH) + " report --spec " +
                           (dir / "spec.json").string() + " --results " +
                           (dir / "results").string() + " --out " + (dir / "lab1.html").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("10 / 15 points: the most a run without a GPU can earn (speed, 5 "
                          "points, is measured on a GPU only)"),
            std::string::npos)
      << r.output;
  const auto html = read_all(dir / "lab1.html");
  EXPECT_NE(html.find("right at 768"), std::string::npos);
  EXPECT_EQ(html.find("right at 2048"), std::string::npos);
}

// A speed beyond the GPU's ceiling: the summary line says so, and the report draws it red.
TEST(LabgradeReport, AnImplausibleSpeedIsNamedInTheSummaryAndTheReport) {
  const auto dir = scratch("implausible");
  write_file(dir / "spec.json", R"({
    "lab": "lab1", "title": "Fake lab",
    "checks": [{"id": "Fake.Speed", "kind": "speed", "title": "fast", "points": 5}]})");
  std::filesystem::create_directories(dir / "results");
  write_file(dir / "results" / "Fake.Speed.json",
             R"({"schema": 1, "lab": "lab1", "check": "Fake.Speed", "verdict": "implausible",
                 "reason": "beyond the FP32 peak",
                 "timing": {"rate_unit": "GFLOP/s", "rate": 90100, "ceiling": 66900,
                            "ceiling_name": "this GPU's FP32 peak"}})");
  const auto r = run_shell(std::string(LABGRADE_PATH) + " report --spec " +
                           (dir / "spec.json").string() + " --results " +
                           (dir / "results").string() + " --out " + (dir / "lab1.html").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0 / 5 points"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 implausible (a speed beyond what this GPU can do)"), std::string::npos)
      << r.output;
  const auto html = read_all(dir / "lab1.html");
  EXPECT_NE(html.find("verdict-implausible"), std::string::npos);
  EXPECT_NE(html.find("implausible: measured 90.1 TFLOP/s, beyond this GPU&#39;s FP32 peak of "
                      "66.9 TFLOP/s"),
            std::string::npos);
}

TEST(LabgradeReport, CorruptRecordsAreWarningsAndTheReportIsStillWritten) {
  const auto dir = scratch("corrupt");
  write_file(dir / "spec.json", grader_test::kSpec);
  std::filesystem::create_directories(dir / "results");
  write_file(dir / "results" / "Fake.Correctness.json", "{ broken");
  const auto r = run_shell(std::string(LABGRADE_PATH) + " report --spec " +
                           (dir / "spec.json").string() + " --results " +
                           (dir / "results").string() + " --out " + (dir / "lab1.html").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0 / 10 points"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "lab1.html"));
}

TEST(LabgradeReport, MissingOrCorruptSpecIsAClearErrorNotACrash) {
  const auto dir = scratch("nospec");
  write_file(dir / "spec.json", "[1, 2");
  auto r = run_shell(std::string(LABGRADE_PATH) + " report --spec " + (dir / "spec.json").string() +
                     " --results " + dir.string() + " --out " + (dir / "x.html").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("spec.json"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << r.output;
  r = run_shell(std::string(LABGRADE_PATH) + " report --spec /nonexistent.json --results " +
                dir.string() + " --out x.html");
  EXPECT_NE(r.exit_code, 0);
}

// `labgrade timings`: the table gains a ceiling column (with the rate's share of it) only when
// a record knows its GPU's ceiling, so older results folders keep the table they had.
TEST(LabgradeTimings, ShowsTheCeilingColumnWhenARecordHasOne) {
  const auto dir = scratch("timings");
  std::filesystem::create_directories(dir / "old");
  std::filesystem::create_directories(dir / "new");
  write_file(dir / "old" / "Fake.Speed.json",
             R"({"schema": 1, "lab": "lab8", "check": "Fake.Speed", "verdict": "pass",
                 "timing": {"size": "4096", "rate_unit": "GFLOP/s", "rate": 40000,
                            "reference_name": "cuBLAS", "reference_rate": 50000, "ratio": 0.8}})");
  write_file(dir / "new" / "Fake.Speed.json",
             R"({"schema": 1, "lab": "lab8", "check": "Fake.Speed", "verdict": "implausible",
                 "timing": {"size": "4096", "rate_unit": "GFLOP/s", "rate": 90100,
                            "reference_name": "cuBLAS", "reference_rate": 50000, "ratio": 1.8,
                            "ceiling": 66900, "ceiling_name": "this GPU's FP32 peak",
                            "verified_calls": 12}})");
  const std::string labgrade = std::string(LABGRADE_PATH) + " timings ";
  auto r = run_shell(labgrade + (dir / "old").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("ceiling"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("| 80.0% | 0.0% | 0.00% | pass |"), std::string::npos) << r.output;

  r = run_shell(labgrade + (dir / "old").string() + " " + (dir / "new").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("| spread | ceiling (rate's share) | verdict |"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("| 0.00% | 66900 GFLOP/s (135%) | implausible |"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("| 0.00% |  | pass |"), std::string::npos) << "unknown: empty cell";
}

TEST(LabgradeCli, HelpAndVersion) {
  auto r = run_shell(std::string(LABGRADE_PATH) + " --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("report"), std::string::npos);
  EXPECT_NE(r.output.find("run"), std::string::npos);
  r = run_shell(std::string(LABGRADE_PATH) + " --version");
  EXPECT_EQ(r.exit_code, 0);
  r = run_shell(std::string(LABGRADE_PATH));
  EXPECT_NE(r.exit_code, 0) << "no subcommand must be an error";
}

}  // namespace
