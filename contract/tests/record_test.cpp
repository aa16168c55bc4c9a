#include "contract/record.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include <gtest/gtest.h>

namespace contract {
namespace {

std::filesystem::path fresh_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("labs-record-test-" + name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

CheckRecord full_record() {
  CheckRecord r;
  r.lab = "lab1";
  r.check = "CopyMatrix.Correctness";
  r.kind = "correctness";
  r.title = "copies";
  r.verdict = Verdict::fail;
  r.reason = "1 of 2 cases wrong";
  r.fraction = 0.5;
  r.points = 12.5;
  r.max_points = 25;
  r.seed = 123456789;
  r.started_at = "2026-11-22T00:00:00Z";
  r.duration_s = 1.5;
  r.reproduce = "LAB_SEED=123456789 ./lab1 --gtest_filter=CopyMatrix.Correctness";
  r.notes = {"launched copy_kernel"};
  CaseResult c;
  c.name = "64x32";
  c.verdict = Verdict::fail;
  c.reason = "2 of 2048 wrong";
  c.total = 2048;
  c.mismatches = 2;
  c.nan_count = 1;
  c.first_mismatches = {{3, 4, "1.5", "NaN"}, {5, 6, "2", "-Inf"}};
  c.error_map = ErrorMap{64, 32, 1, 1, 64, 32, std::vector<float>(64 * 32, 0.0f)};
  c.out_of_bounds = {{"out", 2048, "7"}};
  c.width = 64;
  c.output_repeats = false;
  r.cases = {c};
  r.timing = Timing{"16384x16384", "GB/s",   30,   0.7,  0.69, 0.75, 0.02,
                    1800,          "memcpy", 0.45, 0.01, 2900, 0.62, 0.45};
  r.device = DeviceInfo{"NVIDIA H100", "9.0", "580.159.04", "13.0", 132, 79.6};
  return r;
}

TEST(Record, RoundTripsEveryField) {
  const auto dir = fresh_dir("roundtrip");
  const auto written = full_record();
  write_record(dir, written);
  const auto read = read_record(record_path(dir, written.check));
  EXPECT_EQ(nlohmann::json(read), nlohmann::json(written));
  ASSERT_EQ(read.cases.size(), 1u);
  EXPECT_EQ(read.cases[0].first_mismatches[0].got, "NaN");
  EXPECT_DOUBLE_EQ(read.points, 12.5);
  EXPECT_DOUBLE_EQ(read.max_points, 25);
  EXPECT_EQ(read.cases[0].out_of_bounds[0].offset, 2048);
  EXPECT_EQ(read.cases[0].width, 64);
  EXPECT_EQ(read.cases[0].output_repeats, false);  // set to false, not left unset
  ASSERT_TRUE(read.timing.has_value());
  EXPECT_DOUBLE_EQ(read.timing->ratio, 0.62);
  EXPECT_FALSE(std::filesystem::exists(record_path(dir, written.check).string() + ".tmp"));
}

// The emulator's evidence facts survive a file, every field; a record from before them (no
// "evidence") reads as none, and one with a fact that names no kind is refused.
TEST(Record, RoundTripsEvidenceAndReadsOldRecordsWithout) {
  const auto dir = fresh_dir("evidence");
  auto written = full_record();
  written.kind = "speed";
  written.verdict = Verdict::not_measured;
  written.evidence = {
      {"uncoalesced_access", "emulation", "kernel.cu", 14, "MatMulKernel",
       "kernel.cu:14 (MatMulKernel): each warp's read of B touches 32.0 sectors <of> 32 bytes", 32,
       4},
      {"idle_blocks", "emulation", "kernel.cu", 41, "MatMulKernel", "768 of 1,024 blocks", 768,
       256}};
  write_record(dir, written);
  const auto read = read_record(record_path(dir, written.check));
  EXPECT_EQ(nlohmann::json(read), nlohmann::json(written));
  ASSERT_EQ(read.evidence.size(), 2u);
  EXPECT_EQ(read.evidence[0].kind, "uncoalesced_access");
  EXPECT_EQ(read.evidence[0].source, "emulation");
  EXPECT_EQ(read.evidence[0].file, "kernel.cu");
  EXPECT_EQ(read.evidence[0].line, 14);
  EXPECT_EQ(read.evidence[0].kernel, "MatMulKernel");
  EXPECT_EQ(read.evidence[0].words, written.evidence[0].words);
  EXPECT_DOUBLE_EQ(read.evidence[0].figure, 32);
  EXPECT_DOUBLE_EQ(read.evidence[0].ideal, 4);
  EXPECT_DOUBLE_EQ(read.evidence[1].ideal, 256);

  std::ofstream(dir / "old.json") << R"({"schema": 1, "check": "A.Speed", "verdict": "pass"})";
  EXPECT_TRUE(read_record(dir / "old.json").evidence.empty());
  EXPECT_FALSE(nlohmann::json(full_record()).contains("evidence")) << "written only when there";

  std::ofstream(dir / "bad.json") << R"({"schema": 1, "check": "A.Speed", "verdict": "pass",
      "evidence": [{"words": "no kind"}]})";
  EXPECT_THROW(read_record(dir / "bad.json"), RecordError);
}

// A speed figure beyond the GPU's ceiling: the verdict and the ceiling's figures survive a file,
// and a record from before them reads as "unknown ceiling, nothing verified".
TEST(Record, RoundTripsAnImplausibleSpeedWithItsCeiling) {
  const auto dir = fresh_dir("implausible");
  auto written = full_record();
  written.verdict = Verdict::implausible;
  written.timing->ceiling = 66900;
  written.timing->ceiling_name = "this GPU's FP32 peak (132 SMs x 1980 MHz x 128 lanes x 2)";
  written.timing->verified_calls = 12;
  write_record(dir, written);
  const auto read = read_record(record_path(dir, written.check));
  EXPECT_EQ(nlohmann::json(read), nlohmann::json(written));
  EXPECT_EQ(read.verdict, Verdict::implausible);
  ASSERT_TRUE(read.timing.has_value());
  EXPECT_DOUBLE_EQ(read.timing->ceiling, 66900);
  EXPECT_EQ(read.timing->ceiling_name, written.timing->ceiling_name);
  EXPECT_EQ(read.timing->verified_calls, 12);
  EXPECT_EQ(nlohmann::json(read)["verdict"], "implausible");
  EXPECT_EQ(verdict_from_string("implausible"), Verdict::implausible);
  EXPECT_EQ(verdict_class(Verdict::implausible), VerdictClass::failed);

  std::ofstream(dir / "old.json") << R"({"schema": 1, "check": "A.Speed", "verdict": "pass",
      "timing": {"size": "4096", "rate_unit": "GB/s", "rate": 1450}})";
  const auto old = read_record(dir / "old.json");
  ASSERT_TRUE(old.timing.has_value());
  EXPECT_EQ(old.timing->ceiling, 0);
  EXPECT_EQ(old.timing->ceiling_name, "");
  EXPECT_EQ(old.timing->verified_calls, 0);
}

TEST(Record, MalformedFilesGiveAnErrorNamingTheFile) {
  const auto dir = fresh_dir("malformed");
  const auto file = dir / "Bad.Check.json";
  std::ofstream(file) << "{ not json";
  try {
    read_record(file);
    FAIL() << "a malformed record was accepted";
  } catch (const RecordError& e) {
    EXPECT_NE(std::string(e.what()).find("Bad.Check.json"), std::string::npos) << e.what();
  }
}

TEST(Record, RejectsUnknownVerdictsAndSchemas) {
  const auto dir = fresh_dir("verdict");
  std::ofstream(dir / "a.json") << R"({"schema": 1, "check": "A.B", "verdict": "passed!"})";
  std::ofstream(dir / "b.json") << R"({"schema": 99, "check": "A.C", "verdict": "pass"})";
  std::ofstream(dir / "c.json") << R"({"schema": 1, "check": "A.D", "verdict": "pass"})";
  std::vector<std::string> problems;
  const auto records = read_records(dir, &problems);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].check, "A.D");
  EXPECT_EQ(problems.size(), 2u);
}

TEST(Record, FractionIsClampedToZeroToOne) {
  const auto dir = fresh_dir("fraction");
  std::ofstream(dir / "a.json")
      << R"({"schema": 1, "check": "A.B", "verdict": "fail", "fraction": 7})";
  EXPECT_DOUBLE_EQ(read_record(dir / "a.json").fraction, 1.0);
}

TEST(Record, CheckIdsCannotEscapeTheResultsFolder) {
  const auto path = record_path("/results", "../../etc/passwd");
  EXPECT_EQ(path.parent_path(), std::filesystem::path("/results"));
  EXPECT_EQ(path.filename().string().find('/'), std::string::npos);
  EXPECT_THROW(record_path("/results", ""), RecordError);
}

TEST(Record, MissingFolderHasNoRecords) {
  EXPECT_TRUE(read_records("/nonexistent/labs/results").empty());
}

TEST(Record, FormatsSpecialValuesReadably) {
  EXPECT_EQ(format_value(std::numeric_limits<float>::quiet_NaN()), "NaN");
  EXPECT_EQ(format_value(std::numeric_limits<float>::infinity()), "+Inf");
  EXPECT_EQ(format_value(-std::numeric_limits<float>::infinity()), "-Inf");
  EXPECT_EQ(format_value(0.25f), "0.25");
  EXPECT_EQ(std::stof(format_value(0.1f)), 0.1f);  // round-trips
}

TEST(Record, TimestampIsIsoUtc) {
  const auto stamp = utc_timestamp();
  ASSERT_EQ(stamp.size(), 20u) << stamp;
  EXPECT_EQ(stamp[10], 'T');
  EXPECT_EQ(stamp.back(), 'Z');
}

}  // namespace
}  // namespace contract
