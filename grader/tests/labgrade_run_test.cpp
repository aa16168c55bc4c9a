// `labgrade run` (ctest's runner) decides a check's outcome the way `labgrade batch` does: from
// the nonce-stamped records the lab program sends over the grader channel and how it ended, so
// that a crash, a hang or a missing record never counts as a pass, a record that contradicts the
// exit status is not believed, and nothing the program writes into the results folder or prints
// counts. The fake lab programs are shell scripts that speak the channel like the harness.
#include <algorithm>
#include <chrono>

#include <gtest/gtest.h>

#include "contract/record.hpp"
#include "test_support.hpp"

namespace {

using grader_test::run_shell;
using grader_test::scratch;
using grader_test::write_file;

struct RunFixture {
  std::filesystem::path dir;
  std::filesystem::path results;
  std::filesystem::path spec;
};

RunFixture make_fixture(const std::string& name) {
  RunFixture f{scratch(name), {}, {}};
  f.results = f.dir / "results";
  f.spec = f.dir / "spec.json";
  write_file(f.spec, grader_test::kSpec);
  return f;
}

// What a fake lab program can say on the grader channel: the grader's message arrives on fd 3
// ({"nonce":"...","seed":N}); `started` and `record VERDICT REASON` send stamped lines on fd 4.
constexpr const char* kChannel = R"sh(
message=$(cat <&3)
nonce=$(printf '%s' "$message" | sed 's/.*"nonce":"\([0-9a-f]*\)".*/\1/')
started() { printf '{"nonce":"%s","started":"Fake.Correctness"}\n' "$nonce" >&4; }
record() {
  printf '{"nonce":"%s","record":{"schema":1,"lab":"lab1","check":"Fake.Correctness","verdict":"%s","fraction":1,"reason":"%s"}}\n' "$nonce" "$1" "$2" >&4
}
)sh";

// Runs a fake lab program (a shell script body after the channel helpers) under labgrade run.
grader_test::Result run_fake(const RunFixture& f, const std::string& body, double timeout = 10,
                             const std::string& environment = "") {
  const auto program = f.dir / "fake_lab.sh";
  write_file(program, "#!/bin/sh\n" + std::string(kChannel) + body + "\n", true);
  return run_shell(environment + " " + std::string(LABGRADE_PATH) + " run --spec " +
                   f.spec.string() + " --results " + f.results.string() +
                   " --check Fake.Correctness --timeout " + std::to_string(timeout) + " -- " +
                   program.string());
}

std::string pass_record_json() {
  return R"({"schema": 1, "lab": "lab1", "check": "Fake.Correctness", "verdict": "pass",
             "fraction": 1, "reason": "fine"})";
}

contract::CheckRecord result_record(const RunFixture& f) {
  return contract::read_record(contract::record_path(f.results, "Fake.Correctness"));
}

TEST(LabgradeRun, PassNeedsARecordAndExitZero) {
  const auto f = make_fixture("pass");
  const auto r = run_fake(f, "started; echo 'Fake.Correctness: pass: fine'; record pass fine");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::pass);
}

// The student sees the program's output and labgrade's verdict with its reason.
TEST(LabgradeRun, TheOutputAndTheVerdictAreShown) {
  const auto f = make_fixture("shown");
  const auto r =
      run_fake(f, "echo 'lab1: seed 42'; started; record fail 'the 64x64 copy is wrong'; exit 1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("lab1: seed 42"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Fake.Correctness: fail: the 64x64 copy is wrong"), std::string::npos)
      << r.output;
}

// The seed is chosen by labgrade as the lab program alone would (LAB_SEED replays a run), and the
// program gets the student's environment (ctest's CUDA_VISIBLE_DEVICES).
TEST(LabgradeRun, TheSeedAndTheEnvironmentAreTheStudents) {
  const auto f = make_fixture("seed");
  const auto r =
      run_fake(f, "echo \"message $message gpu $CUDA_VISIBLE_DEVICES\"; started; record pass fine",
               10, "LAB_SEED=4242 CUDA_VISIBLE_DEVICES=3");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"seed\":4242"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("gpu 3"), std::string::npos) << r.output;
}

TEST(LabgradeRun, ExitZeroWithoutARecordFails) {
  const auto f = make_fixture("norecord");
  const auto r = run_fake(f, "echo '[  PASSED  ] 1 test.'; exit 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_EQ(record.verdict, contract::Verdict::fail);
  EXPECT_NE(record.reason.find("before this check ran"), std::string::npos) << record.reason;
}

// Records travel over the channel only: one written into the results folder is not taken.
TEST(LabgradeRun, ARecordFileWrittenByTheProgramIsNotTaken) {
  const auto f = make_fixture("file");
  const auto r = run_fake(f, "mkdir -p " + f.results.string() + " && cat > " +
                                 (f.results / "Fake.Correctness.json").string() + " <<'EOF'\n" +
                                 pass_record_json() + "\nEOF\nexit 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::fail);
}

TEST(LabgradeRun, ARecordWithoutTheNonceIsIgnored) {
  const auto f = make_fixture("nonce");
  const auto r = run_fake(f, "nonce=guessed; started; record pass fine; exit 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::fail);
  EXPECT_NE(r.output.find("did not come from the harness"), std::string::npos) << r.output;
}

TEST(LabgradeRun, ACrashIsRecordedWithItsSignal) {
  const auto f = make_fixture("crash");
  for (const auto* body : {"kill -SEGV $$", "started; kill -SEGV $$"}) {
    const auto r = run_fake(f, body);
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto record = result_record(f);
    EXPECT_EQ(record.verdict, contract::Verdict::fail);
    EXPECT_NE(record.reason.find("SIGSEGV"), std::string::npos) << record.reason;
  }
  EXPECT_NE(result_record(f).reason.find("crashed during this check"), std::string::npos)
      << result_record(f).reason;
}

TEST(LabgradeRun, AHangIsStoppedAtTheTimeLimit) {
  const auto f = make_fixture("hang");
  const auto begin = std::chrono::steady_clock::now();
  const auto r = run_fake(f, "started; sleep 30", 1);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_EQ(record.verdict, contract::Verdict::fail);
  EXPECT_NE(record.reason.find("Fake.Correctness ran past its 1 s limit"), std::string::npos)
      << record.reason;
  EXPECT_NE(r.output.find("ran past its 1 s limit"), std::string::npos) << r.output;
  EXPECT_LT(took.count(), 10);
}

TEST(LabgradeRun, APassRecordWithAFailingExitIsNotBelieved) {
  const auto f = make_fixture("liar");
  const auto r = run_fake(f, "started; record pass fine; exit 1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_EQ(record.verdict, contract::Verdict::error);
  EXPECT_NE(record.reason.find("neither is believed"), std::string::npos) << record.reason;
}

TEST(LabgradeRun, AStaleRecordFromAnEarlierRunIsNotReused) {
  const auto f = make_fixture("stale");
  std::filesystem::create_directories(f.results);
  write_file(f.results / "Fake.Correctness.json", pass_record_json());
  const auto r = run_fake(f, "exit 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::fail);
}

// No GPU: the lab program records the check as skipped and exits 77; ctest shows it skipped, and
// the reason is on the terminal and in the record for the report.
TEST(LabgradeRun, SkipIsPassedThroughAsSkip) {
  const auto f = make_fixture("skip");
  auto r = run_fake(f, "started; record skipped 'no CUDA device'; exit 77");
  EXPECT_EQ(r.exit_code, 77) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::skipped);
  EXPECT_NE(r.output.find("Fake.Correctness: skipped: no CUDA device"), std::string::npos)
      << r.output;
  // A program that ends with 77 before it sends anything: skipped as well, and said why.
  r = run_fake(f, "exit 77");
  EXPECT_EQ(r.exit_code, 77) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::skipped);
  EXPECT_NE(result_record(f).reason.find("exit status 77"), std::string::npos);
}

// The disagreements ctest's old runner had with batch's, gone: a skipped record with exit 0 (a
// case too large for the sanitizer) is a skip, not a lie; a bonus not attempted is not a failure
// (nor a pass); exit 77 is believed only when the records say nothing was judged.
TEST(LabgradeRun, SkippedAndNotAttemptedAreJudgedAsInBatch) {
  const auto f = make_fixture("table");
  auto r = run_fake(f, "started; record skipped 'too large for the sanitizer'; exit 0");
  EXPECT_EQ(r.exit_code, 77) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::skipped);

  r = run_fake(f, "started; record not_attempted 'no bonus.cu'; exit 0");
  EXPECT_EQ(r.exit_code, 77) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::not_attempted);
  EXPECT_NE(r.output.find("not attempted: no bonus.cu"), std::string::npos) << r.output;

  r = run_fake(f, "started; record pass fine; exit 77");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(result_record(f).verdict, contract::Verdict::error);
}

TEST(LabgradeRun, UnknownCheckAndCorruptSpecAreClearErrors) {
  const auto f = make_fixture("badspec");
  write_file(f.spec, "{ \"lab\": ");
  const auto r = run_fake(f, "exit 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("not valid JSON"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << r.output;

  write_file(f.spec, grader_test::kSpec);
  const auto unknown =
      run_shell(std::string(LABGRADE_PATH) + " run --spec " + f.spec.string() + " --results " +
                f.results.string() + " --check Fake.Nothing -- /bin/true");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("has no check 'Fake.Nothing'"), std::string::npos)
      << unknown.output;
}

// A spec that breaks the table of keys (contract/spec_schema.hpp): `labgrade run` and `labgrade
// report` stop before running anything, with one line naming the file, the check and the field.
TEST(LabgradeRun, AnUnknownSpecKeyIsOneLineNamingTheFileAndTheField) {
  const auto f = make_fixture("unknownkey");
  write_file(f.spec, R"({"lab": "lab1", "title": "Fake lab", "checks": [
    {"id": "Fake.Correctness", "kind": "correctness", "title": "fake check", "points": 10,
     "widths": [32]}]})");
  for (const std::string command :
       {" run --spec " + f.spec.string() + " --results " + f.results.string() + " -- /bin/true",
        " report --spec " + f.spec.string() + " --results " + f.results.string() + " --out " +
            (f.dir / "report.html").string()}) {
    const auto r = run_shell(std::string(LABGRADE_PATH) + command);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(f.spec.string() +
                            ": check 'Fake.Correctness': unknown key 'widths' (a correctness "
                            "check takes"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
  }
}

// The lab program could not start its checks (bad arguments, tests and spec that disagree): an
// error that shows what it said.
TEST(LabgradeRun, ABadSetupIsAnErrorWithTheProgramsWords) {
  const auto f = make_fixture("setup");
  const auto r = run_fake(f, "echo 'error: check Fake.Correctness has no test'; exit 2");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_EQ(record.verdict, contract::Verdict::error);
  EXPECT_NE(record.reason.find("could not start its checks"), std::string::npos) << record.reason;
  ASSERT_FALSE(record.notes.empty());
  EXPECT_NE(record.notes[0].find("has no test"), std::string::npos) << record.notes[0];
}

}  // namespace

namespace {

// ctest's labN.run: without --check every check of the spec runs in one run of the program, and
// each check's record and its part of the output are kept for `labgrade verdict`.
grader_test::Result run_all(const RunFixture& f, const std::string& body) {
  const auto program = f.dir / "fake_lab.sh";
  write_file(program, "#!/bin/sh\n" + std::string(kChannel) + body + "\n", true);
  return run_shell(std::string(LABGRADE_PATH) + " run --spec " + f.spec.string() + " --results " +
                   f.results.string() + " -- " + program.string());
}

grader_test::Result verdict_of(const RunFixture& f) {
  return run_shell(std::string(LABGRADE_PATH) + " verdict --results " + f.results.string() +
                   " --check Fake.Correctness");
}

}  // namespace

TEST(LabgradeRunAll, EachCheckGetsItsOwnOutputAndVerdict) {
  const auto f = make_fixture("all-fail");
  const auto r = run_all(f,
                         "echo 'lab1: seed 1'; echo '[ RUN      ] Fake.Correctness'; "
                         "echo 'case 32x32: (row 0, col 1): expected 1, got 2'; started; "
                         "record fail 'the copy is wrong'; exit 1");
  // The run went through: its own test passes; the check's test says how the check went.
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto v = verdict_of(f);
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_NE(v.output.find("(row 0, col 1): expected 1, got 2"), std::string::npos) << v.output;
  EXPECT_NE(v.output.find("Fake.Correctness: fail: the copy is wrong"), std::string::npos)
      << v.output;
  EXPECT_EQ(v.output.find("lab1: seed 1"), std::string::npos) << "not the check's part";
}

TEST(LabgradeRunAll, ACheckTheRunNeverReachedFails) {
  const auto f = make_fixture("all-none");
  EXPECT_EQ(run_all(f, "exit 0").exit_code, 0);
  const auto v = verdict_of(f);
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_NE(v.output.find("Fake.Correctness: fail"), std::string::npos) << v.output;
}

TEST(LabgradeRunAll, AVerdictWithoutARunIsAFailureThatSaysSo) {
  const auto f = make_fixture("all-missing");
  const auto v = verdict_of(f);
  EXPECT_EQ(v.exit_code, 1) << v.output;
  EXPECT_NE(v.output.find("no result"), std::string::npos) << v.output;
}

TEST(LabgradeRunAll, SkippedIsSkippedForCtest) {
  const auto f = make_fixture("all-skip");
  run_all(f, "started; record skipped 'no usable CUDA device'; exit 77");
  const auto v = verdict_of(f);
  EXPECT_EQ(v.exit_code, 77) << v.output;
  EXPECT_NE(v.output.find("no usable CUDA device"), std::string::npos) << v.output;
}
