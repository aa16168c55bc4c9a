// How labgrade batch judges a lab program from outside: exit status, signals, time-outs and the
// nonce-stamped records on its private channel. The fake program (fake_lab.cpp) plays each kind
// of misbehaviour. These run without bubblewrap (isolate = false): the sandbox has its own tests.
#include "batch/run_step.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "batch/verify.hpp"

namespace batch {
namespace {

using harness::Verdict;

Kit fake_kit() {
  Kit kit;
  kit.lab = "lab0";
  kit.spec_path = "unused-spec.json";
  kit.spec = harness::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab0", "title": "Fake",
    "checks": [
      {"id": "Lab.First", "kind": "correctness", "title": "first", "points": 1, "timeout_s": 2},
      {"id": "Lab.Second", "kind": "correctness", "title": "second", "points": 1, "timeout_s": 2},
      {"id": "Lab.Third", "kind": "correctness", "title": "third", "points": 1, "timeout_s": 2}
    ]})"),
                                 "fake-spec.json");
  return kit;
}

RunOutcome run_scenario(const std::string& scenario, double startup_seconds = 30,
                        std::map<std::string, double> check_limits = {},
                        bool gpu_expected = false) {
  const auto kit = fake_kit();
  RunRequest request;
  request.gpu_expected = gpu_expected;
  request.check_limits = std::move(check_limits);
  request.program = FAKE_LAB_PATH;
  request.checks = {"Lab.First", "Lab.Second", "Lab.Third"};
  request.seed = 42;
  request.startup_seconds = startup_seconds;
  request.policy.isolate = false;
  request.policy.workdir = ".";
  request.policy.env.emplace_back("FAKE_SCENARIO", scenario);
  return run_checks(kit, request);
}

std::vector<Verdict> verdicts(const RunOutcome& outcome) {
  std::vector<Verdict> all;
  for (const auto& record : outcome.records) all.push_back(record.verdict);
  return all;
}

TEST(RunChecks, AnHonestProgramsRecordsAreTaken) {
  const auto outcome = run_scenario("honest");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::pass, Verdict::pass}));
  EXPECT_EQ(outcome.processes, 1);
  EXPECT_TRUE(outcome.problems.empty());
}

TEST(RunChecks, ACrashIsChargedToTheRunningCheckAndTheRestRunAgain) {
  const auto outcome = run_scenario("crash_second");
  ASSERT_EQ(outcome.records.size(), 3u);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::fail, Verdict::pass}));
  EXPECT_NE(outcome.records[1].reason.find("crashed"), std::string::npos)
      << outcome.records[1].reason;
  EXPECT_NE(outcome.records[1].reason.find("SIGSEGV"), std::string::npos)
      << outcome.records[1].reason;
  EXPECT_EQ(outcome.processes, 2);
}

TEST(RunChecks, ACheckPastItsLimitIsStoppedAndTheRestRunAgain) {
  const auto outcome = run_scenario("hang_first");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::pass, Verdict::pass}));
  EXPECT_NE(outcome.records[0].reason.find("past its 2 s limit"), std::string::npos)
      << outcome.records[0].reason;
}

// Limits from the reference's durations are tighter than the spec's; never looser.
TEST(RunChecks, ATighterLimitStopsAHangSooner) {
  const auto begin = std::chrono::steady_clock::now();
  const auto outcome = run_scenario("hang_first", 30, {{"Lab.First", 1}, {"Lab.Second", 50}});
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::pass, Verdict::pass}));
  EXPECT_NE(outcome.records[0].reason.find("past its 1 s limit"), std::string::npos)
      << outcome.records[0].reason;
  EXPECT_LT(took.count(), 1.9);
}

// A kernel that hangs in every check costs two limits, not one per check.
TEST(RunChecks, AfterTwoHangsTheRestAreNotRun) {
  const auto outcome = run_scenario("hang_all");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}));
  EXPECT_NE(outcome.records[1].reason.find("past its 2 s limit"), std::string::npos)
      << outcome.records[1].reason;
  EXPECT_NE(outcome.records[2].reason.find("not run: 2 checks ran past their time limits "
                                           "(Lab.First, Lab.Second)"),
            std::string::npos)
      << outcome.records[2].reason;
  EXPECT_EQ(outcome.processes, 2);
}

TEST(RunChecks, AHangBeforeAnyCheckIsStoppedWithoutWaitingForTheWholeBudget) {
  // The budget is 1 + 3 x 2 s; silence with no check running ends the process after 1 s.
  const auto begin = std::chrono::steady_clock::now();
  const auto outcome = run_scenario("hang_before_main", 1);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}));
  EXPECT_NE(outcome.records[0].reason.find("no check started within 1 s"), std::string::npos)
      << outcome.records[0].reason;
  EXPECT_EQ(outcome.processes, 1);
  EXPECT_LT(took.count(), 5.0);
}

TEST(RunChecks, ExitingZeroBeforeAnyCheckEarnsNothing) {
  for (const auto* scenario : {"exit_zero_early", "prints_passed"}) {
    const auto outcome = run_scenario(scenario);
    EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}))
        << scenario;
    EXPECT_NE(outcome.records[0].reason.find("before this check ran"), std::string::npos)
        << outcome.records[0].reason;
  }
}

TEST(RunChecks, ExitingInsideACheckFailsThatCheckOnly) {
  const auto outcome = run_scenario("exit_in_second");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::fail, Verdict::pass}));
  EXPECT_NE(outcome.records[1].reason.find("without a result"), std::string::npos)
      << outcome.records[1].reason;
}

TEST(RunChecks, RecordsWithoutTheNonceAreIgnored) {
  const auto outcome = run_scenario("forge_nonce");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}));
  ASSERT_FALSE(outcome.problems.empty());
  EXPECT_NE(outcome.problems[0].find("did not come from the harness"), std::string::npos);
}

TEST(RunChecks, AnExitStatusThatContradictsTheRecordsVoidsThem) {
  const auto outcome = run_scenario("lie_exit");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::error, Verdict::error, Verdict::error}));
  EXPECT_NE(outcome.records[0].reason.find("neither is believed"), std::string::npos);
}

TEST(RunChecks, NoGpuMeansSkippedNotPassed) {
  const auto outcome = run_scenario("no_gpu");
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::skipped, Verdict::skipped, Verdict::skipped}));
}

// When the reference solution ran on the GPU in the same sandbox, "no GPU" from a submission is a
// claim (sample mallory-fake-skip exits 77 from a static initializer): its checks fail, and say
// why, instead of looking like a machine without a GPU.
TEST(RunChecks, NoGpuWhenTheReferenceHadOneFails) {
  const auto outcome = run_scenario("no_gpu", 30, {}, true);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}));
  ASSERT_FALSE(outcome.records.empty());
  EXPECT_NE(outcome.records[0].reason.find("reference solution ran on this GPU"), std::string::npos)
      << outcome.records[0].reason;
}

TEST(RunChecks, AProgramThatCannotStartIsAnError) {
  const auto kit = fake_kit();
  RunRequest request;
  request.program = "/nonexistent/lab0";
  request.checks = {"Lab.First"};
  request.policy.isolate = false;
  request.policy.workdir = ".";
  const auto outcome = run_checks(kit, request);
  ASSERT_EQ(outcome.records.size(), 1u);
  EXPECT_NE(outcome.records[0].verdict, Verdict::pass);
}

// The digests a trusted run of the solution produced decide whether a claimed pass is believed.
TEST(Verify, APassWithTheWrongDigestIsCaught) {
  const auto honest = run_scenario("honest");
  const auto attestation = attestation_of(honest.records);
  EXPECT_EQ(attestation.size(), 3u);
  EXPECT_TRUE(verify_records(attestation, honest.records).problems.empty());
  EXPECT_EQ(verify_records(attestation, honest.records).verified, 3);
  const auto forged = run_scenario("wrong_digest");
  const auto verification = verify_records(attestation, forged.records);
  EXPECT_EQ(verification.problems.size(), 3u);
  EXPECT_NE(verification.problems[0].find("Lab.First"), std::string::npos);
}

TEST(Verify, FailingCasesAndInexactOutputsAreNotCompared) {
  harness::CheckRecord reference;
  reference.check = "Lab.First";
  harness::CaseResult exact;
  exact.name = "integers";
  exact.output_digest = "abc";
  harness::CaseResult reals;
  reals.name = "reals";  // compared with a tolerance: no digest
  reference.cases = {exact, reals};
  const auto attestation = attestation_of({reference});
  auto student = reference;
  student.cases[0].verdict = Verdict::fail;
  student.cases[0].output_digest = "other";
  EXPECT_TRUE(verify_records(attestation, {student}).problems.empty());
  std::vector<harness::CheckRecord> records{student};
  reject_records(records, "why");
  EXPECT_EQ(records[0].verdict, Verdict::error);
  EXPECT_EQ(records[0].reason, "why");
}

}  // namespace
}  // namespace batch
