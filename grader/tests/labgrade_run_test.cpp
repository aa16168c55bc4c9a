// `labgrade run` decides a check's outcome from how the lab program ended, so that a crash, a
// hang or a missing record never counts as a pass, and a record that contradicts the exit status
// is not believed.
#include <gtest/gtest.h>

#include "harness/record.hpp"
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

// Runs a fake lab program (a shell script body) under labgrade run.
grader_test::Result run_fake(const RunFixture& f, const std::string& body, double timeout = 10) {
  const auto program = f.dir / "fake_lab.sh";
  write_file(program, "#!/bin/sh\n" + body + "\n", true);
  return run_shell(std::string(LABGRADE_PATH) + " run --spec " + f.spec.string() + " --results " +
                   f.results.string() + " --check Fake.Correctness --timeout " +
                   std::to_string(timeout) + " -- " + program.string());
}

std::string pass_record_json() {
  return R"({"schema": 1, "lab": "lab1", "check": "Fake.Correctness", "verdict": "pass",
             "fraction": 1, "reason": "fine"})";
}

harness::CheckRecord result_record(const RunFixture& f) {
  return harness::read_record(harness::record_path(f.results, "Fake.Correctness"));
}

TEST(LabgradeRun, PassNeedsARecordAndExitZero) {
  const auto f = make_fixture("pass");
  const auto r = run_fake(f, "mkdir -p " + f.results.string() + " && cat > " +
                                 (f.results / "Fake.Correctness.json").string() + " <<'EOF'\n" +
                                 pass_record_json() + "\nEOF\nexit 0");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(result_record(f).verdict, harness::Verdict::pass);
}

TEST(LabgradeRun, ExitZeroWithoutARecordFails) {
  const auto f = make_fixture("norecord");
  const auto r = run_fake(f, "echo '[  PASSED  ] 1 test.'; exit 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_EQ(record.verdict, harness::Verdict::fail);
  EXPECT_NE(record.reason.find("without recording"), std::string::npos) << record.reason;
}

TEST(LabgradeRun, ACrashIsRecordedWithItsSignal) {
  const auto f = make_fixture("crash");
  const auto r = run_fake(f, "kill -SEGV $$");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_EQ(record.verdict, harness::Verdict::fail);
  EXPECT_NE(record.reason.find("SIGSEGV"), std::string::npos) << record.reason;
}

TEST(LabgradeRun, AHangIsStoppedAtTheTimeLimit) {
  const auto f = make_fixture("hang");
  const auto r = run_fake(f, "sleep 30", 1);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto record = result_record(f);
  EXPECT_NE(record.reason.find("timed out after 1 s"), std::string::npos) << record.reason;
}

TEST(LabgradeRun, APassRecordWithAFailingExitIsNotBelieved) {
  const auto f = make_fixture("liar");
  const auto r = run_fake(f, "mkdir -p " + f.results.string() + " && cat > " +
                                 (f.results / "Fake.Correctness.json").string() + " <<'EOF'\n" +
                                 pass_record_json() + "\nEOF\nexit 1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(result_record(f).verdict, harness::Verdict::error);
}

TEST(LabgradeRun, AStaleRecordFromAnEarlierRunIsNotReused) {
  const auto f = make_fixture("stale");
  std::filesystem::create_directories(f.results);
  write_file(f.results / "Fake.Correctness.json", pass_record_json());
  const auto r = run_fake(f, "exit 0");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(result_record(f).verdict, harness::Verdict::fail);
}

TEST(LabgradeRun, SkipIsPassedThroughAsSkip) {
  const auto f = make_fixture("skip");
  EXPECT_EQ(run_fake(f, "exit 77").exit_code, 77);
}

TEST(LabgradeRun, UnknownCheckAndCorruptSpecAreClearErrors) {
  const auto f = make_fixture("badspec");
  write_file(f.spec, "{ \"lab\": ");
  const auto r = run_fake(f, "exit 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("not valid JSON"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << r.output;
}

}  // namespace
