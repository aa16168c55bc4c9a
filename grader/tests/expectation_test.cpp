// `labcheck expect`'s decision (grader/src/expectation.hpp) on records made up for the purpose:
// what ctest's labN.must_fail.* and labN.must_pass.* tests pass, fail and skip on, and the line
// each prints, without running a lab program.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "expectation.hpp"

namespace {

using contract::CheckRecord;
using contract::Verdict;
using grader::FailureContext;
using grader::FailureExpectation;
using grader::IsolationExpectation;
using grader::Judgement;
using grader::RunSeen;

constexpr const char* kGpu = "cuda";
constexpr const char* kEmulation = "emulation: forward schedule";

CheckRecord record(const std::string& check, Verdict verdict, const std::string& reason = "",
                   const std::string& backend = kGpu) {
  CheckRecord made;
  made.lab = "lab1";
  made.check = check;
  made.verdict = verdict;
  made.reason = reason;
  made.backend = backend;
  return made;
}

CheckRecord diagnosed(const std::string& check, const std::string& id,
                      const std::string& backend = kGpu) {
  auto made = record(check, Verdict::fail, "wrong values", backend);
  made.diagnosis = contract::Diagnosis{};
  made.diagnosis->id = id;
  return made;
}

CheckRecord with_evidence(CheckRecord made, const std::string& kind, const std::string& words) {
  contract::Evidence fact;
  fact.kind = kind;
  fact.words = words;
  made.evidence.push_back(fact);
  return made;
}

RunSeen seen(std::vector<CheckRecord> records) {
  RunSeen run;
  for (const auto& made : records) run.checks.push_back(made.check);
  run.records = std::move(records);
  return run;
}

// Every line the judgement printed, for failure messages.
std::string text(const Judgement& judgement) {
  std::string all;
  for (const auto& line : judgement.lines) all += line + "\n";
  return all;
}

bool says(const Judgement& judgement, const std::string& words) {
  return std::any_of(judgement.lines.begin(), judgement.lines.end(),
                     [&](const auto& line) { return line.find(words) != std::string::npos; });
}

Judgement fail_judge(const RunSeen& run, const FailureExpectation& expected = {},
                     const FailureContext& context = {}) {
  return grader::judge_failure(expected, run, context);
}

TEST(ExpectFail, EveryNamedCheckFailedIsCaught) {
  const auto judgement = fail_judge(seen({record("A.Small", Verdict::fail, "wrong at (0,1)"),
                                          record("A.Large", Verdict::fail, "wrong at (3,3)")}));
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "caught: A.Small failed, as it must")) << text(judgement);
  EXPECT_TRUE(says(judgement, "caught: A.Large failed, as it must")) << text(judgement);
}

TEST(ExpectFail, ACheckThatPassedIsNotCaught) {
  const auto judgement = fail_judge(
      seen({record("A.Small", Verdict::fail, "wrong"), record("A.Large", Verdict::pass, "ok")}));
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT CAUGHT: A.Large was not failed: pass")) << text(judgement);
}

// Only `fail` is caught: an error (a record the verdict table voided) or an implausible speed is a
// regression of the checks, not the kernel's mistake found.
TEST(ExpectFail, ImplausibleAndErrorAreNotCaught) {
  const auto judgement =
      fail_judge(seen({record("A.Speed", Verdict::implausible, "beyond the FP32 peak"),
                       record("A.Small", Verdict::error, "neither is believed")}));
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT CAUGHT: A.Speed was only implausible")) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT CAUGHT: A.Small was not failed: error")) << text(judgement);
}

TEST(ExpectFail, ANamedCheckWithoutARecordIsNotCaught) {
  auto run = seen({record("A.Small", Verdict::fail, "wrong")});
  run.checks.push_back("A.Large");
  const auto judgement = fail_judge(run);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT CAUGHT: A.Large left no result record")) << text(judgement);
}

TEST(ExpectFail, NotJudgedChecksAreListedAndLeftOut) {
  const auto judgement =
      fail_judge(seen({record("A.Small", Verdict::fail, "wrong", kEmulation),
                       record("A.Speed", Verdict::not_measured, "not measured", kEmulation)}));
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "not judged: A.Speed is not measured here")) << text(judgement);
}

TEST(ExpectFail, ANamedCheckNotAttemptedIsNotCaught) {
  const auto judgement =
      fail_judge(seen({record("A.Bonus", Verdict::not_attempted, "not attempted", kEmulation)}));
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT CAUGHT")) << text(judgement);
}

TEST(ExpectFail, OnlySpeedChecksUnderTheEmulationAreSkipped) {
  const auto judgement =
      fail_judge(seen({record("A.Speed", Verdict::not_measured, "not measured", kEmulation)}));
  EXPECT_EQ(judgement.status, 77) << text(judgement);
  EXPECT_TRUE(says(judgement, "skipped: every named check is a speed check")) << text(judgement);
}

TEST(ExpectFail, NoGpuIsSkipped) {
  const auto judgement =
      fail_judge(seen({record("A.Small", Verdict::skipped, "no usable GPU: no CUDA device")}));
  EXPECT_EQ(judgement.status, 77) << text(judgement);
  EXPECT_TRUE(says(judgement, "skipped: no GPU to run the kernel on")) << text(judgement);
}

TEST(ExpectFail, AFailureWithoutTheReasonWordsIsNotCaught) {
  FailureExpectation expected;
  expected.reason = "the CPU emulation found a race on shared memory";
  const auto judgement =
      fail_judge(seen({record("A.Small", Verdict::fail, "wrong at (0,1)")}), expected);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement,
                   "NOT CAUGHT: A.Small failed, but its reason is not \"the CPU "
                   "emulation found a race on shared memory...\": wrong at (0,1)"))
      << text(judgement);
}

TEST(ExpectFail, TheReasonWordsMayBeInACase) {
  FailureExpectation expected;
  expected.reason = "found an access outside the memory";
  auto failed = record("A.Small", Verdict::fail, "1 of 2 sizes wrong");
  failed.cases.push_back({});
  failed.cases.back().reason = "the CPU emulation found an access outside the memory it was given";
  const auto judgement = fail_judge(seen({failed}), expected);
  EXPECT_EQ(judgement.status, 0) << text(judgement);
}

TEST(ExpectFail, WithAnyOneFailedCheckIsEnough) {
  FailureExpectation expected;
  expected.any = true;
  const auto caught = fail_judge(
      seen({record("A.Small", Verdict::pass), record("A.Large", Verdict::fail, "wrong")}),
      expected);
  EXPECT_EQ(caught.status, 0) << text(caught);
  EXPECT_TRUE(says(caught, "caught by 1 of the checks")) << text(caught);
  const auto missed = fail_judge(
      seen({record("A.Small", Verdict::pass), record("A.Large", Verdict::pass)}), expected);
  EXPECT_EQ(missed.status, 1) << text(missed);
}

// The cases of the old harness.expect_failure_diagnosis test: a GPU record of A.B diagnosed
// last_tile_skipped, against the kernel's "// diagnosis:" ids.
TEST(ExpectFail, DiagnosisIsHeldToTheKernelsIds) {
  const auto run = seen({diagnosed("A.B", "last_tile_skipped")});
  const auto judge = [&](std::vector<std::string> ids) {
    FailureExpectation expected;
    expected.diagnoses = std::move(ids);
    return fail_judge(run, expected);
  };
  EXPECT_EQ(judge({}).status, 0);
  EXPECT_EQ(judge({"last_tile_skipped"}).status, 0) << text(judge({"last_tile_skipped"}));
  EXPECT_EQ(judge({"last_tile_skipped", "first_tile_only"}).status, 0);
  const auto wrong = judge({"first_tile_only"});
  EXPECT_EQ(wrong.status, 1) << text(wrong);
  EXPECT_TRUE(says(wrong, "WRONG DIAGNOSIS: A.B names last_tile_skipped; expected first_tile_only"))
      << text(wrong);
  const auto first_never_named = judge({"first_tile_only", "last_tile_skipped"});
  EXPECT_EQ(first_never_named.status, 1) << text(first_never_named);
  EXPECT_TRUE(says(first_never_named, "WRONG DIAGNOSIS: no check named first_tile_only"))
      << text(first_never_named);
}

TEST(ExpectFail, ACheckWithoutADiagnosisIsNoted) {
  FailureExpectation expected;
  expected.diagnoses = {"last_tile_skipped"};
  const auto judgement = fail_judge(
      seen({diagnosed("A.B", "last_tile_skipped"), record("A.C", Verdict::fail, "wrong")}),
      expected);
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "  diagnosis: none given for A.C")) << text(judgement);
}

TEST(ExpectFail, TheEmulationsDiagnosisIsShownNotHeld) {
  FailureExpectation expected;
  expected.diagnoses = {"first_tile_only"};
  const auto judgement =
      fail_judge(seen({diagnosed("A.B", "last_tile_skipped", kEmulation)}), expected);
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "diagnosis (emulation, not held to it): A.B names last_tile_skipped"))
      << text(judgement);
}

TEST(ExpectFail, MissingEvidenceKindsFailUnderTheEmulation) {
  FailureExpectation expected;
  expected.evidence = {"bank_conflict", "uncoalesced_access"};
  const auto failed = record("A.Small", Verdict::fail, "wrong", kEmulation);
  const auto judgement = fail_judge(
      seen({with_evidence(failed, "bank_conflict", "32-way conflict at kernel.cu:9")}), expected);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "evidence: the records carry bank_conflict, as they must:"))
      << text(judgement);
  EXPECT_TRUE(says(judgement, "  32-way conflict at kernel.cu:9")) << text(judgement);
  EXPECT_TRUE(says(judgement,
                   "NO EVIDENCE: no record's evidence has a uncoalesced_access fact "
                   "(the run's: bank_conflict)"))
      << text(judgement);
}

// A kernel wrong only for speed: its named checks are not measured under the emulation, so it is
// judged by the facts of the rerun of its suite's correctness checks.
TEST(ExpectFail, ASpeedOnlyKernelIsJudgedByItsEvidence) {
  FailureExpectation expected;
  expected.evidence = {"uncoalesced_access"};
  expected.evidence_checks = "A.Small";
  const auto run = seen({record("A.Speed", Verdict::not_measured, "not measured", kEmulation)});
  const std::vector<CheckRecord> rerun = {with_evidence(
      record("A.Small", Verdict::pass, "", kEmulation), "uncoalesced_access", "stride 32")};
  FailureContext context;
  context.evidence_rerun = &rerun;
  const auto judgement = fail_judge(run, expected, context);
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "evidence: running A.Small for the emulator's facts"))
      << text(judgement);
  const std::vector<CheckRecord> bare = {record("A.Small", Verdict::pass, "", kEmulation)};
  context.evidence_rerun = &bare;
  EXPECT_EQ(fail_judge(run, expected, context).status, 1);
}

TEST(ExpectFail, TheKitsSourcesMustNotBeShown) {
  auto run = seen({record("A.Small", Verdict::fail, "wrong")});
  run.output = "lab1: seed 1\ncontract/src/record_json.cpp:42: assertion\n";
  const auto judgement = fail_judge(run);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "GRADER PATH SHOWN")) << text(judgement);
  EXPECT_TRUE(says(judgement, "2:contract/src/record_json.cpp:42")) << text(judgement);
}

TEST(ExpectFail, ARedTeamCaseNotCaughtInAnUnisolatedRunIsSkipped) {
  FailureExpectation expected;
  expected.isolation = IsolationExpectation::or_skip;
  auto run = seen({record("A.Small", Verdict::pass, "forged")});
  run.isolation_lines = {"not isolated: no bubblewrap, and not root"};
  const auto skipped = fail_judge(run, expected);
  EXPECT_EQ(skipped.status, 77) << text(skipped);
  EXPECT_TRUE(says(skipped, "skipped: this run was not isolated")) << text(skipped);
  run.isolation_lines = {"isolated: bubblewrap"};
  EXPECT_EQ(fail_judge(run, expected).status, 1);
}

TEST(ExpectFail, ByHandTheLauncherMustNotRunInBubblewrap) {
  FailureExpectation expected;
  expected.isolation = IsolationExpectation::by_hand;
  auto run = seen({record("A.Small", Verdict::fail, "wrong")});
  run.isolation_lines = {"isolated: bubblewrap"};
  const auto judgement = fail_judge(run, expected);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT ISOLATED BY HAND")) << text(judgement);
  run.isolation_lines = {"isolated: uid 200001 in a PID namespace of its own"};
  EXPECT_EQ(fail_judge(run, expected).status, 0);
}

TEST(ExpectFail, WhereBubblewrapRunsTheLauncherMustRunInIt) {
  FailureExpectation expected;
  expected.isolation = IsolationExpectation::bubblewrap;
  auto run = seen({record("A.Small", Verdict::fail, "wrong")});
  run.isolation_lines = {"isolated: bubblewrap", "not isolated: bwrap failed"};
  FailureContext context;
  context.bubblewrap_here = "/usr/bin/bwrap";
  const auto judgement = fail_judge(run, expected, context);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "OUT OF ITS SANDBOX: /usr/bin/bwrap runs here")) << text(judgement);
  context.bubblewrap_here = "";
  const auto unchecked = fail_judge(run, expected, context);
  EXPECT_EQ(unchecked.status, 0) << text(unchecked);
  EXPECT_TRUE(says(unchecked, "not checked: bubblewrap cannot run here")) << text(unchecked);
}

TEST(ExpectPass, EveryNamedCheckPassed) {
  const auto judgement = grader::judge_pass(
      seen({record("A.Small", Verdict::pass), record("A.Large", Verdict::pass)}));
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "passed: A.Small, as it must")) << text(judgement);
}

TEST(ExpectPass, AFailedCheckCostsAnInnocentPoints) {
  const auto judgement = grader::judge_pass(
      seen({record("A.Small", Verdict::pass), record("A.Large", Verdict::fail, "wrong at (1,1)")}));
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "INNOCENT LOST POINTS: A.Large: fail: wrong at (1,1)"))
      << text(judgement);
}

TEST(ExpectPass, NotJudgedChecksAreLeftOutAndNothingJudgedIsSkipped) {
  const auto some = grader::judge_pass(
      seen({record("A.Small", Verdict::pass, "", kEmulation),
            record("A.Speed", Verdict::not_measured, "not measured", kEmulation)}));
  EXPECT_EQ(some.status, 0) << text(some);
  EXPECT_TRUE(says(some, "not judged: A.Speed is not measured here")) << text(some);
  const auto none = grader::judge_pass(
      seen({record("A.Speed", Verdict::not_measured, "not measured", kEmulation)}));
  EXPECT_EQ(none.status, 77) << text(none);
}

// A right kernel named for a (bonus) check must attempt it: "not attempted" is 0 points, not a
// check this run could not judge.
TEST(ExpectPass, ANamedCheckNotAttemptedCostsAnInnocentPoints) {
  const auto judgement = grader::judge_pass(
      seen({record("A.Bonus", Verdict::not_attempted, "not attempted", kEmulation)}));
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "INNOCENT LOST POINTS: A.Bonus")) << text(judgement);
}

}  // namespace

namespace {

TEST(ExpectBuildFailure, AFailedBuildMustSayEverySentence) {
  const std::vector<std::string> sentences = {
      "calls cublasSgemm_v2 (cuBLAS), which this lab does not allow", "undefined reference"};
  const auto caught = grader::judge_build_failure(
      "lab8_calls_cublas", 2,
      "ld: undefined reference to cublasSgemm_v2\nkernel.cu calls cublasSgemm_v2 (cuBLAS), which "
      "this lab does not allow\n",
      sentences);
  EXPECT_EQ(caught.status, 0) << text(caught);
  const auto wrong_words =
      grader::judge_build_failure("lab8_calls_cublas", 2, "ld: undefined reference\n", sentences);
  EXPECT_EQ(wrong_words.status, 1) << text(wrong_words);
  EXPECT_TRUE(says(wrong_words,
                   "WRONG WORDS: the failed build does not say \"calls "
                   "cublasSgemm_v2 (cuBLAS), which this lab does not allow\""))
      << text(wrong_words);
}

TEST(ExpectBuildFailure, ABuildThatWorkedIsNotCaught) {
  const auto judgement = grader::judge_build_failure("lab8_calls_cublas", 0, "", {"anything"});
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "NOT CAUGHT: lab8_calls_cublas was built, but its build must fail"))
      << text(judgement);
}

// A build stopped by its time limit (or killed) never said why it failed, whatever its partial
// output holds.
TEST(ExpectBuildFailure, ABuildThatDidNotEndByItselfIsNotCaught) {
  const auto judgement =
      grader::judge_build_failure("lab8_calls_cublas", -1, "calls cublasSgemm", {"calls cublas"});
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "did not end by itself")) << text(judgement);
}

}  // namespace

namespace {

grader::LauncherViewSeen isolated_view() {
  grader::LauncherViewSeen seen;
  seen.output =
      "launcher: view uid: 200003\n"
      "launcher: view dev: fd full null random shm stderr stdin stdout urandom zero \n"
      "launcher: view init:   \n"
      "launcher: view nproc: 1024\n"
      "launcher: view tmp: writable\n"
      "launcher: view shm: writable\n";
  seen.isolation_lines = {"isolated: uid 200003 in a PID namespace of its own"};
  return seen;
}

TEST(ExpectLauncherView, TheViewOfALauncherIsolatedByHand) {
  const auto judgement = grader::judge_launcher_view(isolated_view());
  EXPECT_EQ(judgement.status, 0) << text(judgement);
  EXPECT_TRUE(says(judgement, "isolated by hand as it must be")) << text(judgement);
}

TEST(ExpectLauncherView, TheLabProgramsSeedOrDevicesInSightAreNotIsolated) {
  auto seen = isolated_view();
  seen.output += "launcher: view init: /build/labs/lab1 --seed 4242\n";
  seen.output += "launcher: view dev: nvidia0 nvidiactl null \n";
  seen.left_file_in_machine_tmp = true;
  const auto judgement = grader::judge_launcher_view(seen);
  EXPECT_EQ(judgement.status, 1) << text(judgement);
  EXPECT_TRUE(says(judgement, "its /proc/1/cmdline shows the lab program's")) << text(judgement);
  EXPECT_TRUE(says(judgement, "what it wrote in its /tmp is in the machine's")) << text(judgement);
  seen = isolated_view();
  seen.isolation_lines = {"isolated: bubblewrap"};
  EXPECT_EQ(grader::judge_launcher_view(seen).status, 1);
}

}  // namespace
