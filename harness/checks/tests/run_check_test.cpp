// run_check (harness/check.hpp) around fake check bodies: no GPU needed, the bodies only set
// verdicts. A speed check whose first timing is too noisy to judge is measured once more.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "common/spawn.hpp"
#include "contract/exit_status.hpp"
#include "harness/check.hpp"
#include "harness/contract.hpp"
#include "harness/host_refusal.hpp"
#include "harness/sanitizer.hpp"
#include "harness/speed.hpp"

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

// A thread the host refused (EAGAIN) is not the student's failure: the lab program ends with
// exit_status::host_refused and records nothing for the check.
TEST_F(RunCheck, AThreadTheHostRefusedEndsTheProgramAsRefusedNotAsAFailedCheck) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ::unsetenv(common::kTaskCapVariable);  // outside the grader's sandbox: the host's refusal
  EXPECT_EXIT(run_check([](Check&) {
                throw std::system_error(
                    std::make_error_code(std::errc::resource_unavailable_try_again), "thread");
              }),
              ::testing::ExitedWithCode(contract::exit_status::host_refused),
              "the host refused the lab program a thread or a process");
  EXPECT_FALSE(fs::exists(dir_ / (id_ + ".json")));
}

// The submission's own processes filling the run's cap refused the thread: its doing, charged.
// (In the grader's sandbox the cap comes in LABGRADE_TASK_CAP and /proc is the run's own.)
TEST_F(RunCheck, AThreadRefusedWhileTheRunsOwnTasksFillItsCapIsTheSubmissionsDoing) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv(common::kTaskCapVariable, "1", 1);  // this process alone fills it
        ::testing::TestPartResultArray failures;
        ::testing::ScopedFakeTestPartResultReporter quiet(
            ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS, &failures);
        run_check([](Check&) {
          throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again),
                                  "thread");
        });
        std::_Exit(record().verdict == Verdict::error ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(HostRefusal, NinetyPercentOfTheCapIsTheSubmissionsOwnDoing) {
  EXPECT_FALSE(tasks_fill_the_cap(899, 1000));
  EXPECT_TRUE(tasks_fill_the_cap(900, 1000));
  EXPECT_TRUE(tasks_fill_the_cap(40000, 256));
  EXPECT_FALSE(tasks_fill_the_cap(5, 0));  // no cap told: nothing to fill
}

TEST(HostRefusal, OutsideTheGradersSandboxARefusalIsTheHosts) {
  ::unsetenv(common::kTaskCapVariable);
  EXPECT_FALSE(own_tasks_fill_the_cap());
}

TEST_F(RunCheck, AnotherSystemErrorStopsTheCheckAsBefore) {
  EXPECT_NONFATAL_FAILURE(run_check([](Check&) {
                            throw std::system_error(
                                std::make_error_code(std::errc::no_such_file_or_directory), "open");
                          }),
                          "the check stopped: open");
  EXPECT_EQ(record().verdict, Verdict::error);
  EXPECT_NE(record().reason.find("the check stopped"), std::string::npos) << record().reason;
}

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

// The emulator's evidence goes into every check's record and changes nothing of its verdict or
// points; a speed check (not measured under the emulation: it runs no kernel) gets its suite's.
TEST(EmulatedFindings, EvidenceIsShownAndJudgesNothing) {
  take_evidence("Tiled.Integers");
  CheckSpec spec;
  spec.id = "Tiled.Integers";
  spec.kind = "correctness";
  spec.title = "right on integers";
  spec.points = 10;
  Check check(spec);
  check.set_verdict(Verdict::pass, "all right");
  const contract::Evidence fact{"bank_conflict",
                                "emulation",
                                "kernel.cu",
                                23,
                                "transpose",
                                "kernel.cu:23 (transpose): reading tile ...: 32-way",
                                32,
                                1};
  note_evidence(fact);
  note_evidence(fact);  // the same kind, file and line: once
  for (int line = 1; line <= 10; ++line) {
    note_evidence({"aliasing_write", "emulation", "kernel.cu", line, "k", "words", 2, 0});
  }
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_EQ(r.points, 10);
  EXPECT_EQ(r.reason, "all right");
  ASSERT_EQ(r.evidence.size(), kMaxEvidence);
  EXPECT_EQ(r.evidence[0].words, fact.words);
  EXPECT_EQ(r.evidence[0].line, 23);
  EXPECT_EQ(r.evidence[1].kind, "aliasing_write");
  EXPECT_TRUE(take_evidence("Tiled.Integers").empty()) << "taken by the check";

  CheckSpec speed = spec;
  speed.id = "Tiled.Speed";
  speed.kind = "speed";
  Check timed(speed);
  timed.set_verdict(Verdict::not_measured, "not measured: emulation");
  const auto s = timed.finish(0.0);
  EXPECT_EQ(s.verdict, Verdict::not_measured);
  EXPECT_EQ(s.points, 0);
  ASSERT_FALSE(s.evidence.empty());
  EXPECT_EQ(s.evidence[0].words, fact.words);
  // Another function's speed check: its suite measured nothing, so nothing is shown.
  speed.id = "Other.Speed";
  Check other(speed);
  other.set_verdict(Verdict::not_measured, "not measured: emulation");
  EXPECT_TRUE(other.finish(0.0).evidence.empty());

  // The same kind, file and line measured more (a larger launch): that one is kept.
  auto worse = fact;
  worse.figure = 64;
  worse.words = "kernel.cu:23 (transpose): 64-way";
  note_evidence(fact);
  note_evidence(worse);
  note_evidence(fact);
  const auto kept = take_evidence("Tiled.Integers");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0].words, worse.words);
}

// judge_share on a figure beyond the GPU's FP32 peak: implausible, no points, whatever its share,
// and never "inconclusive" for a wide spread; an honest figure keeps its share of the points.
CheckSpec share_spec() {
  CheckSpec spec;
  spec.id = "Sgemm.ShareAt4096";
  spec.kind = "speed";
  spec.title = "share of cuBLAS";
  spec.points = 25;
  spec.full_points_at_ratio = 0.75;
  return spec;
}

Timing lab8_timing(double rate) {
  Timing t;
  t.size = "4096x4096 * 4096x4096";
  t.rate_unit = "GFLOP/s";
  t.rate = rate;
  t.reference_name = "cuBLAS SGEMM (FP32)";
  t.reference_rate = 51500;
  t.ratio = rate / t.reference_rate;
  t.ceiling = 66908;
  t.ceiling_name = "this GPU's FP32 peak (132 SMs x 1980 MHz x 128 lanes x 2 = 66.9 TFLOP/s)";
  return t;
}

TEST(JudgeSpeed, AFigureBeyondTheFp32PeakIsImplausibleAndEarnsNothing) {
  const auto spec = share_spec();  // Check keeps a reference to its spec
  Check check(spec);
  auto timing = lab8_timing(2771841);  // the issue's 5382% of cuBLAS
  timing.spread = 0.2;                 // noisy too: still not "inconclusive"
  judge_share(check, timing, 0.01, 0.03);
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::implausible);
  EXPECT_EQ(r.points, 0);
  EXPECT_NE(r.reason.find("beyond this GPU's FP32 peak"), std::string::npos) << r.reason;
  ASSERT_TRUE(r.timing.has_value());
  EXPECT_DOUBLE_EQ(r.timing->ceiling, 66908);
}

TEST(JudgeSpeed, ACopyBeyondTheMemoryBandwidthIsImplausible) {
  CheckSpec spec;
  spec.id = "CopyMatrixStrided.Speed";
  spec.kind = "speed";
  spec.title = "strided copy at 60% of cudaMemcpy";
  spec.points = 15;
  Check check(spec);
  Timing t;  // the issue's lab 1 figure: 8050 GB/s, 268% of cudaMemcpy, on a 3352 GB/s H100
  t.rate_unit = "GB/s";
  t.rate = 8050;
  t.reference_name = "cudaMemcpy device to device";
  t.reference_rate = 3004;
  t.ratio = t.rate / t.reference_rate;
  t.ceiling = 3352;
  t.ceiling_name = "this GPU's memory bandwidth (2619 MHz x 2 x 5120 bits = 3352 GB/s)";
  judge_speed(check, t, 0.6, 0.1);
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::implausible);
  EXPECT_EQ(r.points, 0);
  EXPECT_NE(r.reason.find("8050 GB/s"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("memory bandwidth"), std::string::npos) << r.reason;
}

TEST(JudgeSpeed, AnHonestFigureKeepsItsShare) {
  const auto spec = share_spec();
  Check check(spec);
  judge_share(check, lab8_timing(0.6 * 51500), 0.01, 0.03);
  const auto r = check.finish(0.0);
  EXPECT_EQ(r.verdict, Verdict::pass);
  EXPECT_NEAR(r.points, 20, 0.01) << "fraction " << r.fraction << " of " << r.max_points << ": "
                                  << r.reason;  // 60% of cuBLAS, full points at 75%
}

TEST(JudgeSpeed, NoiseNeverHidesAClearFail) {
  const auto spec = share_spec();
  Check check(spec);
  auto timing = lab8_timing(0.004 * 51500);  // 0.4% of cuBLAS, needs 1%
  timing.spread = 0.3;                       // far over max_spread 3%
  judge_speed(check, timing, 0.01, 0.03);
  EXPECT_EQ(check.finish(0.0).verdict, Verdict::fail);

  Check near(spec);
  auto close = lab8_timing(0.009 * 51500);  // 0.9%: noise could be the difference
  close.spread = 0.3;
  judge_speed(near, close, 0.01, 0.03);
  EXPECT_EQ(near.finish(0.0).verdict, Verdict::inconclusive);
}

}  // namespace
}  // namespace harness
