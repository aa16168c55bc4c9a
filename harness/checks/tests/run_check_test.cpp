// run_check (harness/check.hpp) around fake check bodies: no GPU needed, the bodies only set
// verdicts. A speed check whose first timing is too noisy to judge is measured once more.
#include <filesystem>
#include <string>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "harness/check.hpp"
#include "harness/contract.hpp"
#include "harness/sanitizer.hpp"

namespace harness {
namespace {

namespace fs = std::filesystem;

// Points lab_run() at a spec whose only check is the running test, as a speed check.
class RunCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    id_ = std::string(info->test_suite_name()) + "." + info->name();
    saved_ = std::move(lab_run());
    lab_run() = LabRun{};
    lab_run().spec = parse_spec(nlohmann::json::parse(R"({"lab": "lab9", "title": "t",
        "checks": [{"id": ")" + id_ + R"(", "kind": "speed", "title": "fast", "points": 5}]})"),
                                "spec.json");
    dir_ = fs::temp_directory_path() / ("run-check-test-" + id_);
    fs::remove_all(dir_);
    lab_run().results_dir = dir_;
  }
  void TearDown() override {
    lab_run() = std::move(saved_);
    fs::remove_all(dir_);
  }
  CheckRecord record() const { return read_record(dir_ / (id_ + ".json")); }

  std::string id_;
  fs::path dir_;
  LabRun saved_;
};

TEST_F(RunCheck, AnInconclusiveTimingIsMeasuredOnceMore) {
  int runs = 0;
  run_check([&](Check& check) {
    ++runs;
    if (runs == 1) {
      check.set_verdict(Verdict::inconclusive, "spread 5% > 3%");
    } else {
      check.set_verdict(Verdict::pass, "80% of cuBLAS");
    }
  });
  EXPECT_EQ(runs, 2);
  const auto r = record();
  EXPECT_EQ(r.verdict, Verdict::pass);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find("spread 5% > 3%"), std::string::npos) << r.notes.front();
}

// Runs a check whose body gives the same verdict every time, expecting run_check to report a
// failure that mentions `reported`; returns how many times the body ran.
int runs_of_failing_check(Verdict verdict, const std::string& reason, const std::string& reported) {
  int runs = 0;
  EXPECT_NONFATAL_FAILURE(run_check([&](Check& check) {
                            ++runs;
                            check.set_verdict(verdict, reason);
                          }),
                          reported.c_str());
  return runs;
}

TEST_F(RunCheck, TwiceInconclusiveIsReportedInconclusive) {
  EXPECT_EQ(runs_of_failing_check(Verdict::inconclusive, "spread 9% > 3%", "inconclusive"), 2);
  EXPECT_EQ(record().verdict, Verdict::inconclusive);
}

TEST_F(RunCheck, APassOrAFailIsNotMeasuredAgain) {
  EXPECT_EQ(runs_of_failing_check(Verdict::fail, "40% of cuBLAS; needs 50%", "40% of cuBLAS"), 1);
}

// Under the CPU emulation the launcher's findings fail a correctness check that earned something
// (Check::apply_memory_errors), each kind with its own words; the later ones are notes.
TEST(EmulatedFindings, ARaceFailsACorrectnessCheckWithItsOwnWords) {
  CheckSpec spec;
  spec.id = "Tiled.Integers";
  spec.kind = "correctness";
  spec.title = "right on integers";
  spec.points = 10;
  Check check(spec);
  check.set_verdict(Verdict::pass, "all right");
  note_shared_memory_race("kernel.cu:20 (K), thread (1,0,0) of block (0,0,0): read after write");
  note_memory_error("kernel.cu:18 (K), thread (0,2,0) of block (0,0,0): invalid read");
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::fail);
  EXPECT_EQ(r.points, 0);
  EXPECT_EQ(r.reason,
            "the CPU emulation found a race on shared memory in your kernel (the results can look "
            "right, but the code is wrong): kernel.cu:20 (K), thread (1,0,0) of block (0,0,0): "
            "read after write");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0],
            "the CPU emulation found an access outside the memory it was given: kernel.cu:18 (K), "
            "thread (0,2,0) of block (0,0,0): invalid read");
  EXPECT_TRUE(take_memory_errors().empty()) << "taken by the check";
}

}  // namespace
}  // namespace harness
