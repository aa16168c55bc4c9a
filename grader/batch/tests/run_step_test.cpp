// How labgrade batch judges a lab program from outside: exit status, signals, time-outs and the
// nonce-stamped records on its private channel. The fake program (fake_lab.cpp) plays each kind
// of misbehaviour. These run without bubblewrap (isolate = false): the sandbox has its own tests.
#include "batch/run_step.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <thread>

#include "batch/kit.hpp"
#include "batch/verify.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

using contract::Verdict;

Kit fake_kit() {
  Kit kit;
  kit.lab = "lab0";
  kit.spec_path = "unused-spec.json";
  kit.spec = contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab0", "title": "Fake",
    "checks": [
      {"id": "Lab.First", "kind": "correctness", "title": "first", "points": 1, "timeout_s": 2},
      {"id": "Lab.Second", "kind": "correctness", "title": "second", "points": 1, "timeout_s": 2},
      {"id": "Lab.Third", "kind": "correctness", "title": "third", "points": 1, "timeout_s": 2}
    ]})"),
                                  "fake-spec.json");
  return kit;
}

// A request to run the fake lab's three checks in `scenario`, without isolation.
RunRequest fake_request(const Kit& kit, const std::string& scenario) {
  RunRequest request;
  request.command = {FAKE_LAB_PATH, "--spec", kit.spec_path.string()};
  request.checks = {"Lab.First", "Lab.Second", "Lab.Third"};
  request.policy.isolate = false;
  request.run_program = sandbox::run;  // resource limits, as in a batch without isolation
  request.policy.workdir = ".";
  request.policy.env.emplace_back("FAKE_SCENARIO", scenario);
  return request;
}

// A marker file's path, absent at first: the fake lab looks for it (FAKE_ALONE_FILE, ...).
std::filesystem::path absent_marker(const std::string& name) {
  const auto path =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  return path;
}

// A request in `scenario` whose runs alone make FAKE_ALONE_FILE exist while they run (the fake
// lab behaves as with the machine to itself) and are counted in `alone_runs`.
RunRequest request_with_runs_alone(const Kit& kit, const std::string& scenario,
                                   const std::filesystem::path& alone_file, int& alone_runs) {
  RunRequest request = fake_request(kit, scenario);
  request.policy.env.emplace_back("FAKE_ALONE_FILE", alone_file.string());
  request.run_alone = [&alone_runs, alone_file](const std::function<void()>& work) {
    ++alone_runs;
    std::ofstream(alone_file) << "";
    work();
    std::filesystem::remove(alone_file);
  };
  return request;
}

RunOutcome run_scenario(const std::string& scenario, double startup_seconds = 30,
                        std::map<std::string, double> check_limits = {}, bool gpu_expected = false,
                        std::vector<std::pair<std::string, std::string>> env = {}) {
  const auto kit = fake_kit();
  RunRequest request = fake_request(kit, scenario);
  request.gpu_expected = gpu_expected;
  request.check_limits = std::move(check_limits);
  request.seed = 42;
  request.startup_seconds = startup_seconds;
  for (auto& var : env) request.policy.env.push_back(std::move(var));
  return run_checks(kit.spec, request);
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

// A sandbox that cannot start the program is the grader's failure: an isolated run charges no
// check with it (the batch grades the submission "grader error"); an unisolated one, whose
// start failure is the program's own (a missing file), charges as before.
sandbox::Result not_started(const sandbox::Policy&, const std::vector<std::string>&,
                            const sandbox::Channel&) {
  sandbox::Result result;
  result.failed_to_start = true;
  result.exit_code = -1;
  result.output = "sandbox: bubblewrap could not set up the sandbox:\nbwrap: setting up uid map";
  return result;
}

TEST(RunChecks, ASandboxThatCannotStartChargesNoCheck) {
  const auto kit = fake_kit();
  RunRequest request = fake_request(kit, "honest");
  request.run_program = not_started;
  request.policy.isolate = true;
  try {
    run_checks(kit.spec, request);
    ADD_FAILURE() << "no SandboxNotStarted";
  } catch (const SandboxNotStarted& error) {
    EXPECT_NE(std::string(error.what()).find("setting up uid map"), std::string::npos)
        << error.what();
  }
  request.policy.isolate = false;
  const auto outcome = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}));
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

// A check that runs out of time while others share the machine gets one more run with the machine
// to itself: a slow but correct kernel never loses points to the load of others.
TEST(RunChecks, ACheckPastItsLimitWhileSharedRunsAgainAlone) {
  const auto alone_file = absent_marker("labgrade-alone");
  const auto kit = fake_kit();
  int alone_runs = 0;
  RunRequest request = request_with_runs_alone(kit, "slow_unless_alone", alone_file, alone_runs);
  const auto outcome = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::pass, Verdict::pass}));
  EXPECT_EQ(alone_runs, 1);
  ASSERT_FALSE(outcome.records[0].notes.empty());
  EXPECT_NE(outcome.records[0].notes.back().find("machine to itself"), std::string::npos);

  // A kernel that hangs alone too still fails, after one run alone.
  request.policy.env.back().second = "/nonexistent/never-alone";
  request.policy.env.front().second = "hang_first";
  alone_runs = 0;
  const auto hung = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(hung), (std::vector{Verdict::fail, Verdict::pass, Verdict::pass}));
  EXPECT_EQ(alone_runs, 1);
}

// A speed run starts its program before its turn: the program waits, runs no check until the
// turn comes, and the wait (longer here than the whole budget) counts against no limit. The turn
// is taken once: the process that runs the checks after a crash goes at once, and the turn is
// given back when the last check is recorded.
TEST(RunChecks, AProgramStartedBeforeItsTurnWaitsForItUncounted) {
  const auto turn_file = absent_marker("labgrade-turn");
  const auto kit = fake_kit();
  RunRequest request = fake_request(kit, "crash_second");
  request.startup_seconds = 1;
  request.max_check_seconds = 0.5;  // a budget of 2.5 s for the whole run
  request.policy.env.emplace_back("FAKE_TURN_FILE", turn_file.string());
  int turns = 0;
  request.take_turn = [&] {
    ++turns;
    std::this_thread::sleep_for(std::chrono::seconds(3));
    std::ofstream(turn_file) << "";
  };
  int ends = 0;
  request.end_turn = [&] { ++ends; };
  const auto outcome = run_checks(kit.spec, request);
  std::filesystem::remove(turn_file);
  ASSERT_EQ(outcome.records.size(), 3u);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::fail, Verdict::pass}))
      << outcome.records[0].reason;
  EXPECT_NE(outcome.records[1].reason.find("crashed"), std::string::npos);
  EXPECT_EQ(outcome.processes, 2);
  EXPECT_EQ(turns, 1);
  // Given back once the second process recorded the last check, before it exited.
  EXPECT_EQ(ends, 1);
}

// A program silent between checks (no check running) past the start-up limit while others share
// the machine may only be starved of the CPU: the checks left run again alone before they fail.
// The load test (scripts/load-test.sh) found this: a right kernel lost 25 points to it.
TEST(RunChecks, ASilenceBetweenChecksWhileSharedRunsTheRestAgainAlone) {
  const auto alone_file = absent_marker("labgrade-silent");
  const auto kit = fake_kit();
  RunRequest request = fake_request(kit, "silent_unless_alone");
  request.startup_seconds = 1;
  request.policy.env.emplace_back("FAKE_ALONE_FILE", alone_file.string());
  int alone_runs = 0;
  request.run_alone = [&](const std::function<void()>& work) {
    ++alone_runs;
    // The turn alone comes after every shared run has ended: longer than the start-up limit.
    // The wait is no silence of the program's (the 30-submission load test lost points to it).
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::ofstream(alone_file) << "";
    work();
    std::filesystem::remove(alone_file);
  };
  const auto outcome = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::pass, Verdict::pass}));
  EXPECT_EQ(alone_runs, 1);
  EXPECT_EQ(outcome.processes, 2);
  ASSERT_EQ(outcome.problems.size(), 1u);
  EXPECT_NE(outcome.problems[0].find("machine to itself"), std::string::npos);

  // Silent when alone too: the rest fail, after one run alone.
  request.policy.env.back().second = "/nonexistent/never-alone";
  alone_runs = 0;
  const auto silent = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(silent), (std::vector{Verdict::pass, Verdict::fail, Verdict::fail}));
  EXPECT_EQ(alone_runs, 1);
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

// The GPU's memory ran out in a check while others shared it: once more alone before it fails.
TEST(RunChecks, ACheckTheGpusMemoryRanOutInWhileSharedRunsAgainAlone) {
  const auto alone_file = absent_marker("labgrade-oom-alone");
  const auto kit = fake_kit();
  int alone_runs = 0;
  RunRequest request =
      request_with_runs_alone(kit, "out_of_memory_unless_alone", alone_file, alone_runs);
  const auto outcome = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::pass, Verdict::pass, Verdict::pass}))
      << outcome.records[1].reason;
  EXPECT_EQ(alone_runs, 1);
  EXPECT_EQ(outcome.processes, 2);
  ASSERT_FALSE(outcome.records[1].notes.empty());
  EXPECT_NE(outcome.records[1].notes.back().find("machine to itself"), std::string::npos);

  // Out of memory alone too: the record stands, after one run alone.
  request.policy.env.back().second = "/nonexistent/never-alone";
  alone_runs = 0;
  const auto again = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(again), (std::vector{Verdict::pass, Verdict::fail, Verdict::pass}));
  EXPECT_EQ(alone_runs, 1);

  // Without a run alone to offer (a speed run, ctest) the record stands at once.
  request.run_alone = nullptr;
  const auto speed = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(speed), (std::vector{Verdict::pass, Verdict::fail, Verdict::pass}));
  EXPECT_EQ(speed.processes, 1);
}

// A kernel that hangs alone too is known to hang: the next check past its limit among shared
// runs fails without another run alone (each would hold the GPU from every speed run).
TEST(RunChecks, AfterAHangAloneTheNextHangIsNotRunAloneAgain) {
  const auto kit = fake_kit();
  RunRequest request = fake_request(kit, "hang_all");
  int alone_runs = 0;
  request.run_alone = [&](const std::function<void()>& work) {
    ++alone_runs;
    work();
  };
  const auto outcome = run_checks(kit.spec, request);
  EXPECT_EQ(verdicts(outcome), (std::vector{Verdict::fail, Verdict::fail, Verdict::fail}));
  EXPECT_EQ(alone_runs, 1);
  EXPECT_EQ(outcome.processes, 3);  // First shared and alone, Second shared; Third not run
  ASSERT_FALSE(outcome.records[1].notes.empty());
  EXPECT_NE(outcome.records[1].notes.back().find("not run again alone"), std::string::npos)
      << outcome.records[1].notes.back();
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

// The lab program says the host refused it a thread (exit 75, contract/exit_status.hpp): what it
// recorded is dropped and the batch is told to grade again (grade_one's attempts), rather than a
// check failed for another program's load.
TEST(RunChecks, ALabProgramTheHostRefusedAThreadIsNoVerdictButAnotherAttempt) {
  try {
    run_scenario("host_refused_in_second");
    ADD_FAILURE() << "no exception";
  } catch (const std::system_error& error) {
    EXPECT_EQ(error.code(), std::errc::resource_unavailable_try_again);
    EXPECT_NE(std::string(error.what()).find("the host refused the lab program"), std::string::npos)
        << error.what();
  }
}

// What is tried again rather than charged or stopped: the host's task limit, nothing else.
TEST(RunChecks, OnlyTheHostsTaskLimitIsTriedAgain) {
  const auto eagain = std::make_error_code(std::errc::resource_unavailable_try_again);
  EXPECT_TRUE(refused_by_host_task_limit(std::system_error(eagain, "thread")));
  EXPECT_FALSE(refused_by_host_task_limit(
      std::system_error(std::make_error_code(std::errc::no_such_file_or_directory), "open")));
  EXPECT_TRUE(refused_by_host_task_limit(SandboxNotStarted(
      "the grader could not start the lab program in its sandbox (sandbox: cannot fork for 60.0 "
      "s: Resource temporarily unavailable)")));
  EXPECT_FALSE(refused_by_host_task_limit(
      SandboxNotStarted("the grader could not start the lab program in its sandbox (no uid)")));
  EXPECT_FALSE(refused_by_host_task_limit(std::runtime_error("Resource temporarily unavailable")));
}

// A program that sends FAKE_VERDICT for every check, then exits with `exit_code`.
RunOutcome run_verdicts(const std::string& verdict, int exit_code, bool gpu_expected = false) {
  return run_scenario("verdict_exit", 30, {}, gpu_expected,
                      {{"FAKE_VERDICT", verdict}, {"FAKE_EXIT", std::to_string(exit_code)}});
}

std::vector<Verdict> three(Verdict verdict) { return {verdict, verdict, verdict}; }

// The verdict table (batch/verdict_table.hpp), which ctest's `labgrade run` shares: skipped,
// not measured and not attempted fail nothing, so exit 0 agrees with them (a check skipped under
// the sanitizer, a bonus left alone); ctest used to call a skipped record with exit 0 a lie.
TEST(VerdictTable, RecordsThatFailNothingAgreeWithExitZero) {
  for (const auto* verdict : {"skipped", "not_measured", "not_attempted"}) {
    const auto outcome = run_verdicts(verdict, 0);
    EXPECT_EQ(verdicts(outcome), three(contract::verdict_from_string(verdict))) << verdict;
  }
}

TEST(VerdictTable, ExitOneWithNothingFailedIsNotBelieved) {
  for (const auto* verdict : {"pass", "skipped", "not_attempted"}) {
    const auto outcome = run_verdicts(verdict, 1);
    EXPECT_EQ(verdicts(outcome), three(Verdict::error)) << verdict;
    EXPECT_NE(outcome.records[0].reason.find("neither is believed"), std::string::npos);
  }
}

// Exit 77 says nothing was judged: records of skipped or unmeasured checks agree with it, a pass
// or a failure does not (ctest used to believe any 77).
TEST(VerdictTable, ExitSeventySevenIsHeldToItsRecords) {
  EXPECT_EQ(verdicts(run_verdicts("skipped", 77)), three(Verdict::skipped));
  EXPECT_EQ(verdicts(run_verdicts("not_measured", 77)), three(Verdict::not_measured));
  for (const auto* verdict : {"pass", "fail", "not_attempted"}) {
    const auto outcome = run_verdicts(verdict, 77);
    EXPECT_EQ(verdicts(outcome), three(Verdict::error)) << verdict;
    EXPECT_NE(outcome.records[0].reason.find("exit code 77"), std::string::npos)
        << outcome.records[0].reason;
  }
}

// Where the reference ran its checks on the GPU, skipped records with exit 77 are a claim too;
// speed checks not measured (the CPU emulation's speed phase) are not.
TEST(VerdictTable, SkippedRecordsAreNotBelievedWhereAGpuIsExpected) {
  EXPECT_EQ(verdicts(run_verdicts("skipped", 77, true)), three(Verdict::fail));
  EXPECT_EQ(verdicts(run_verdicts("not_measured", 77, true)), three(Verdict::not_measured));
}

TEST(VerdictTable, BadSetupBeforeAnyCheckIsAnErrorWithTheOutput) {
  const auto outcome = run_scenario("bad_setup");
  EXPECT_EQ(verdicts(outcome), three(Verdict::error));
  EXPECT_NE(outcome.records[0].reason.find("could not start its checks (exit code 2)"),
            std::string::npos)
      << outcome.records[0].reason;
  ASSERT_FALSE(outcome.records[0].notes.empty());
  EXPECT_NE(outcome.records[0].notes[0].find("the spec says no"), std::string::npos);
}

// A speed beyond the GPU's ceiling is a failure: exit 1 agrees with it, exit 0 or 77 does not.
TEST(VerdictTable, AnImplausibleSpeedFailsLikeAWrongAnswer) {
  EXPECT_EQ(verdicts(run_verdicts("implausible", 1)), three(Verdict::implausible));
  for (const int exit_code : {0, 77}) {
    const auto outcome = run_verdicts("implausible", exit_code);
    EXPECT_EQ(verdicts(outcome), three(Verdict::error)) << exit_code;
    EXPECT_NE(outcome.records[0].reason.find("neither is believed"), std::string::npos)
        << outcome.records[0].reason;
  }
}

TEST(VerdictTable, CtestSeesPassedFailedOrSkipped) {
  EXPECT_EQ(ctest_status(Verdict::pass), 0);
  for (auto verdict : {Verdict::fail, Verdict::error, Verdict::inconclusive, Verdict::not_run,
                       Verdict::implausible}) {
    EXPECT_EQ(ctest_status(verdict), 1) << contract::to_string(verdict);
  }
  for (auto verdict : {Verdict::skipped, Verdict::not_measured, Verdict::not_attempted}) {
    EXPECT_EQ(ctest_status(verdict), 77) << contract::to_string(verdict);
  }
}

TEST(RunChecks, TheProgramsOutputIsShownAsItComes) {
  const auto kit = fake_kit();
  RunRequest request;
  request.command = {FAKE_LAB_PATH};
  request.checks = {"Lab.First"};
  request.policy.isolate = false;
  request.run_program = sandbox::run;  // resource limits, as in a batch without isolation
  request.policy.env.emplace_back("FAKE_SCENARIO", "prints_passed");
  std::string shown;
  request.on_output = [&](std::string_view piece) { shown += piece; };
  const auto outcome = run_checks(kit.spec, request);
  EXPECT_NE(shown.find("[  PASSED  ] 3 tests."), std::string::npos) << shown;
  EXPECT_EQ(verdicts(outcome), std::vector{Verdict::fail});
}

TEST(RunChecks, AProgramThatCannotStartIsAnError) {
  const auto kit = fake_kit();
  RunRequest request;
  request.command = {"/nonexistent/lab0"};
  request.checks = {"Lab.First"};
  request.policy.isolate = false;
  request.run_program = sandbox::run;  // resource limits, as in a batch without isolation
  request.policy.workdir = ".";
  const auto outcome = run_checks(kit.spec, request);
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
  contract::CheckRecord reference;
  reference.check = "Lab.First";
  contract::CaseResult exact;
  exact.name = "integers";
  exact.output_digest = "abc";
  contract::CaseResult reals;
  reals.name = "reals";  // compared with a tolerance: no digest
  reference.cases = {exact, reals};
  const auto attestation = attestation_of({reference});
  auto student = reference;
  student.cases[0].verdict = Verdict::fail;
  student.cases[0].output_digest = "other";
  EXPECT_TRUE(verify_records(attestation, {student}).problems.empty());
  std::vector<contract::CheckRecord> records{student};
  reject_records(records, "why");
  EXPECT_EQ(records[0].verdict, Verdict::error);
  EXPECT_EQ(records[0].reason, "why");
}

}  // namespace
}  // namespace batch
