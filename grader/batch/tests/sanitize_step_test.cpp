// The memory and race pass, with a stand-in for compute-sanitizer: a script that runs the fake lab
// program as the real one runs its target, then prints what the real one printed for an
// out-of-bounds read on an H100 (CUDA 13.0).
#include "batch/sanitize_step.hpp"
#include "batch/sanitizer_plan.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "harness/mistakes.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {
namespace {

using contract::CheckRecord;
using contract::Verdict;

contract::LabSpec fake_spec() {
  return contract::parse_spec(nlohmann::json::parse(R"({
    "lab": "lab0", "title": "Fake",
    "checks": [
      {"id": "Lab.First", "kind": "correctness", "title": "first", "points": 1, "timeout_s": 5},
      {"id": "Lab.Second", "kind": "correctness", "title": "second", "points": 1, "timeout_s": 5},
      {"id": "Lab.Third", "kind": "correctness", "title": "third", "points": 1, "timeout_s": 5}
    ]})"),
                              "fake-spec.json");
}

// A compute-sanitizer stand-in: skips the 8 option words the pass gives, runs the program, then
// prints `report` (or nothing, when the pass must look unfinished).
std::string fake_sanitizer(const std::string& name, const std::string& report) {
  const auto path =
      std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
  std::ofstream(path) << "#!/bin/sh\nshift 8\n\"$@\"\nstatus=$?\ncat <<'REPORT'\n"
                      << report << "REPORT\nexit $status\n";
  ::chmod(path.c_str(), 0755);
  return path.string();
}

const char* const kOutOfBoundsRead = R"(========= Invalid __global__ read of size 4 bytes
=========     at MatMulAnyKernel(const float *, const float *, float *, int, int, int)+0x290 in kernel.cu:21
=========     by thread (1,0,0) in block (0,0,0)
=========     Access to 0x7f4f52a00204 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f4f52a00200 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1
=========         Host Frame: Lab_Second_check_body(harness::Check&) [0xaad8b] in lab0
=========         Host Frame: Lab_Second_Test::TestBody() [0xaa289] in lab0
=========         Host Frame: main [0xa7ef2] in lab0
========= 
========= ERROR SUMMARY: 1 error
)";

RunRequest fake_request() {
  RunRequest request;
  request.command = {FAKE_LAB_PATH, "--spec", "unused-spec.json"};
  request.policy.isolate = false;
  request.run_program = sandbox::run;  // resource limits, as in a batch without isolation
  request.policy.workdir = ".";
  request.policy.env.emplace_back("FAKE_SCENARIO", "honest");
  return request;
}

std::vector<CheckRecord> passed(const contract::LabSpec& spec) {
  std::vector<CheckRecord> records;
  for (const auto& check : spec.checks) {
    CheckRecord record;
    record.check = check.id;
    record.verdict = Verdict::pass;
    record.fraction = 1;
    records.push_back(record);
  }
  return records;
}

Kit gpu_kit_with_tools(std::vector<std::string> tools) {
  Kit kit;
  kit.backend = "cuda";
  kit.sanitizer = "/usr/local/cuda/bin/compute-sanitizer";
  kit.optional_sources = {"bonus.cu"};
  kit.spec.sanitizer_tools = std::move(tools);
  return kit;
}

TEST(SanitizerPlan, WithoutAnEmulatedPassMemcheckIsHostedAndRacecheckIsAPass) {
  const auto plan = sanitizer_plan_of(gpu_kit_with_tools({"memcheck", "racecheck"}), false);
  EXPECT_TRUE(plan.in_runs.hosted_memcheck);
  EXPECT_EQ(pass_tools(plan.in_runs), std::vector<std::string>{"racecheck"});
  EXPECT_EQ(plan.in_runs.student_files, (std::vector<std::string>{"kernel.cu", "bonus.cu"}));
  EXPECT_TRUE(plan.fallback.sanitizer.empty());
}

// The emulator looks instead; compute-sanitizer, every tool in a pass of its own, only where it
// could not.
TEST(SanitizerPlan, WithAnEmulatedPassTheSanitizerIsTheFallbackOnly) {
  const auto plan = sanitizer_plan_of(gpu_kit_with_tools({"memcheck", "racecheck"}), true);
  EXPECT_TRUE(plan.in_runs.sanitizer.empty());
  EXPECT_FALSE(plan.fallback.hosted_memcheck);
  EXPECT_EQ(pass_tools(plan.fallback), (std::vector<std::string>{"memcheck", "racecheck"}));
  EXPECT_EQ(plan.fallback.sanitizer, "/usr/local/cuda/bin/compute-sanitizer");
}

TEST(SanitizerPlan, NoToolsNoSanitizerOrTheEmulationMeanNoPass) {
  for (const bool emulated : {false, true}) {
    auto none = sanitizer_plan_of(gpu_kit_with_tools({}), emulated);
    EXPECT_TRUE(none.in_runs.sanitizer.empty() && none.fallback.sanitizer.empty());
    auto kit = gpu_kit_with_tools({"memcheck"});
    kit.sanitizer.clear();
    none = sanitizer_plan_of(kit, emulated);
    EXPECT_TRUE(none.in_runs.sanitizer.empty() && none.fallback.sanitizer.empty());
    kit = gpu_kit_with_tools({"memcheck"});
    kit.backend = "emulation";
    none = sanitizer_plan_of(kit, emulated);
    EXPECT_TRUE(none.in_runs.sanitizer.empty() && none.fallback.sanitizer.empty());
  }
}

TEST(SanitizeChecks, AFindingFailsItsCheckWithTheStudentsLine) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  const SanitizerPass pass{
      fake_sanitizer("fake-sanitizer-oob", kOutOfBoundsRead), {"memcheck"}, {"kernel.cu"}};
  const auto outcome = sanitize_checks(spec, pass, fake_request(), records);
  EXPECT_EQ(outcome.runs, 1);
  EXPECT_EQ(outcome.findings, 1);
  EXPECT_TRUE(outcome.problems.empty());
  EXPECT_EQ(records[0].verdict, Verdict::pass);
  EXPECT_EQ(records[2].verdict, Verdict::pass);
  ASSERT_EQ(records[1].verdict, Verdict::fail);
  EXPECT_EQ(records[1].fraction, 0);
  const auto& reason = records[1].reason;
  EXPECT_NE(reason.find("compute-sanitizer memcheck"), std::string::npos) << reason;
  EXPECT_NE(reason.find("kernel.cu:21"), std::string::npos) << reason;
  EXPECT_NE(reason.find("(1,0,0)"), std::string::npos) << reason;
}

// A finding in a kernel that is not the student's (the harness's, a library's) is the kit's
// problem: it goes to the instructor's log and costs the student nothing.
TEST(SanitizeChecks, AFindingOutsideTheStudentsFilesCostsNothing) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  std::string report = kOutOfBoundsRead;
  report.replace(report.find("in kernel.cu:21"), 15, "in compare.cu:40");
  const SanitizerPass pass{
      fake_sanitizer("fake-sanitizer-harness", report), {"memcheck"}, {"kernel.cu"}};
  const auto outcome = sanitize_checks(spec, pass, fake_request(), records);
  EXPECT_EQ(outcome.findings, 0);
  ASSERT_EQ(outcome.log.size(), 1u);
  EXPECT_NE(outcome.log[0].find("not charged"), std::string::npos) << outcome.log[0];
  for (const auto& record : records) EXPECT_EQ(record.verdict, Verdict::pass);
}

// A pass that ended without compute-sanitizer's summary found nothing it can vouch for: the
// verdicts stay, and the batch's log says so.
TEST(SanitizeChecks, AnUnfinishedPassChangesNoVerdict) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  const SanitizerPass pass{fake_sanitizer("fake-sanitizer-cut", ""), {"memcheck"}, {"kernel.cu"}};
  const auto outcome = sanitize_checks(spec, pass, fake_request(), records);
  EXPECT_EQ(outcome.findings, 0);
  ASSERT_EQ(outcome.problems.size(), 1u);
  EXPECT_NE(outcome.problems[0].find("did not finish"), std::string::npos);
  for (const auto& record : records) EXPECT_EQ(record.verdict, Verdict::pass);
}

// Only checks that earned something are run again: a failed check has nothing to lose. A
// finding in the student's file that names a check the pass did not run was attributed wrongly
// (the pass runs only the others): it is charged to the first check the pass ran, never dropped.
TEST(SanitizeChecks, FailedChecksAreLeftOutAndAMisattributedFindingIsNotDropped) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  records[1].verdict = Verdict::fail;
  records[1].fraction = 0;
  records[1].reason = "wrong";
  const SanitizerPass pass{
      fake_sanitizer("fake-sanitizer-left-out", kOutOfBoundsRead), {"memcheck"}, {"kernel.cu"}};
  const auto outcome = sanitize_checks(spec, pass, fake_request(), records);
  EXPECT_EQ(records[1].reason, "wrong");
  EXPECT_EQ(outcome.findings, 1);  // the finding names Lab.Second, which was not in the pass
  EXPECT_EQ(records[0].verdict, Verdict::fail);
  EXPECT_NE(records[0].reason.find("kernel.cu:21"), std::string::npos) << records[0].reason;
  EXPECT_EQ(records[2].verdict, Verdict::pass);
}

// One command line for every run under compute-sanitizer: the batch's pass, its hosted memcheck
// and ctest's `labcheck sanitize` (grader/tests/labcheck_sanitize_test.cpp sees it there).
TEST(SanitizerCommand, EveryRunStartsWithTheOneCommandLine) {
  const std::vector<std::string> expected{"/cuda/bin/compute-sanitizer",
                                          "--tool",
                                          "racecheck",
                                          "--target-processes",
                                          "application-only",
                                          "--print-limit",
                                          "200",
                                          "--report-api-errors",
                                          "no"};
  EXPECT_EQ(sanitizer_command("/cuda/bin/compute-sanitizer", "racecheck"), expected);
  SanitizerPass pass{"/cuda/bin/compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  const auto hosted = hosted_memcheck_request(fake_request(), pass, {});
  const auto memcheck = sanitizer_command(pass.sanitizer, "memcheck");
  ASSERT_GE(hosted.command.size(), memcheck.size());
  EXPECT_TRUE(std::equal(memcheck.begin(), memcheck.end(), hosted.command.begin()));
}

// ---- memcheck hosted in the correctness run ----

TEST(HostedMemcheck, TheRequestWrapsTheRunAndInstrumentsTheStudentsKernelsAlone) {
  SanitizerPass pass{"/cuda/bin/compute-sanitizer", {"memcheck", "racecheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  auto request = fake_request();
  request.check_limits["Lab.First"] = 2.5;
  const auto hosted = hosted_memcheck_request(request, pass, {"_Z6kernelPf", "_Z5otherv"});
  ASSERT_GE(hosted.command.size(), 4u);
  EXPECT_EQ(hosted.command.front(), "/cuda/bin/compute-sanitizer");
  const auto has = [&](const std::string& a, const std::string& b) {
    for (std::size_t i = 0; i + 1 < hosted.command.size(); ++i) {
      if (hosted.command[i] == a && hosted.command[i + 1] == b) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("--tool", "memcheck"));
  EXPECT_TRUE(has("--destroy-on-device-error", "kernel"));
  EXPECT_TRUE(has("--kernel-name", "kne=_Z6kernelPf"));
  EXPECT_TRUE(has("--kernel-name", "kne=_Z5otherv"));
  // The lab program's own command comes last, whole.
  EXPECT_EQ(std::vector<std::string>(hosted.command.end() - 3, hosted.command.end()),
            request.command);
  EXPECT_FALSE(hosted.policy.own_uid);
  // The reference ran hosted too: its limits hold.
  EXPECT_EQ(hosted.check_limits.at("Lab.First"), 2.5);
  bool mode = false;
  for (const auto& [name, value] : hosted.policy.env) {
    mode = mode || (name == "LAB_SANITIZER" && value == "memcheck-hosted");
  }
  EXPECT_TRUE(mode);
  EXPECT_EQ(pass_tools(pass), std::vector<std::string>{"racecheck"});
  pass.hosted_memcheck = false;
  EXPECT_EQ(pass_tools(pass), (std::vector<std::string>{"memcheck", "racecheck"}));
}

// In the graded run every correctness check can be charged, failed or not: memcheck ends the
// kernel at its bad access, so a failure there is the finding's doing. The buffers' places,
// noted for the words, never reach the student.
TEST(HostedMemcheck, FindingsFailTheirCheckAndThePlacesAreTakenOut) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  records[1].verdict = Verdict::fail;
  records[1].fraction = 0;
  records[1].reason = "NaN at (0, 1): not written";
  records[1].notes.push_back("device buffer B at 0x7f4f52a00200, 4 bytes");
  records[1].notes.push_back("a note the student reads");
  SanitizerPass pass{"compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  const auto outcome = charge_hosted_findings(spec, pass, kOutOfBoundsRead, records);
  EXPECT_EQ(outcome.findings, 1);
  EXPECT_EQ(outcome.failed_checks, std::set<std::string>{"Lab.Second"});
  EXPECT_TRUE(outcome.problems.empty());
  EXPECT_EQ(records[0].verdict, Verdict::pass);
  ASSERT_EQ(records[1].verdict, Verdict::fail);
  EXPECT_NE(records[1].reason.find("kernel.cu:21"), std::string::npos) << records[1].reason;
  EXPECT_NE(records[1].reason.find("past the end of B"), std::string::npos) << records[1].reason;
  for (const auto& note : records[1].notes) {
    EXPECT_EQ(note.find("device buffer"), std::string::npos) << note;
  }
  EXPECT_NE(std::find(records[1].notes.begin(), records[1].notes.end(), "a note the student reads"),
            records[1].notes.end());
}

// memcheck ended the kernel at its first bad access: the output the check compared was cut
// short, so the case diagnoses read from it go, and memcheck's finding is the check's diagnosis.
TEST(HostedMemcheck, AFindingIsThePrimaryDiagnosisAndTheCutShortOutputIsNoEvidence) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  records[1].verdict = Verdict::fail;
  records[1].fraction = 0.5;
  records[1].diagnosis = harness::make_diagnosis("output_not_initialised", "right from 0");
  contract::CaseResult from_output;
  from_output.verdict = Verdict::fail;
  from_output.diagnosis = harness::make_diagnosis("output_not_initialised", "right from 0");
  contract::CaseResult refused;
  refused.verdict = Verdict::fail;
  refused.diagnosis = harness::make_diagnosis("launch_config_invalid", "1024 x 2 threads");
  records[1].cases = {from_output, refused};
  records[0].cases = {from_output};  // a check memcheck found nothing in keeps its own
  SanitizerPass pass{"compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  charge_hosted_findings(spec, pass, kOutOfBoundsRead, records);
  ASSERT_EQ(records[1].verdict, Verdict::fail);
  ASSERT_TRUE(records[1].diagnosis);
  EXPECT_EQ(records[1].diagnosis->id, "reads_outside_inputs");
  EXPECT_NE(records[1].diagnosis->evidence.find("kernel.cu:21"), std::string::npos)
      << records[1].diagnosis->evidence;
  EXPECT_NE(records[1].diagnosis->evidence.find("cut short"), std::string::npos)
      << records[1].diagnosis->evidence;
  EXPECT_FALSE(records[1].cases[0].diagnosis);
  ASSERT_TRUE(records[1].cases[1].diagnosis);  // the launch's refusal is not read from the output
  EXPECT_EQ(records[1].cases[1].diagnosis->id, "launch_config_invalid");
  EXPECT_TRUE(records[0].cases[0].diagnosis);
  // A write past a buffer is named as one.
  auto writes = passed(spec);
  std::string write_report = kOutOfBoundsRead;
  write_report.replace(write_report.find("read of size"), 4, "write");
  charge_hosted_findings(spec, pass, write_report, writes);
  ASSERT_TRUE(writes[1].diagnosis);
  EXPECT_EQ(writes[1].diagnosis->id, "out_of_bounds_write");
}

// The finding's id: only an out-of-bounds access of global memory names a missing guard. Shared
// or local memory, or a misaligned address, keep memcheck's words under the neutral id.
TEST(HostedMemcheck, OnlyAGlobalAccessOutOfBoundsNamesAMissingGuard) {
  const auto spec = fake_spec();
  SanitizerPass pass{"compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  const auto id_for = [&](const std::string& header, bool misaligned) {
    std::string report = kOutOfBoundsRead;
    report.replace(report.find("Invalid __global__ read"), 23, header);
    if (misaligned) {
      report.replace(report.find("Access to 0x7f4f52a00204 is out of bounds"), 41,
                     "Address 0x7f4f52a00202 is misaligned");
    }
    auto records = passed(spec);
    charge_hosted_findings(spec, pass, report, records);
    return records[1].diagnosis ? records[1].diagnosis->id : std::string("(none)");
  };
  EXPECT_EQ(id_for("Invalid __global__ read", false), "reads_outside_inputs");
  EXPECT_EQ(id_for("Invalid __global__ write", false), "out_of_bounds_write");
  EXPECT_EQ(id_for("Invalid __shared__ write", false), "memory_access_error");
  EXPECT_EQ(id_for("Invalid __shared__ read", false), "memory_access_error");
  EXPECT_EQ(id_for("Invalid __local__ read", false), "memory_access_error");
  EXPECT_EQ(id_for("Invalid __global__ read", true), "memory_access_error");
  EXPECT_EQ(id_for("Invalid __global__ write", true), "memory_access_error");
  // memcheck's own words, at the student's line.
  std::string shared = kOutOfBoundsRead;
  shared.replace(shared.find("Invalid __global__ read"), 23, "Invalid __shared__ write");
  auto records = passed(spec);
  charge_hosted_findings(spec, pass, shared, records);
  ASSERT_TRUE(records[1].diagnosis);
  EXPECT_NE(records[1].diagnosis->evidence.find("kernel.cu:21"), std::string::npos)
      << records[1].diagnosis->evidence;
  EXPECT_EQ(records[1].diagnosis->evidence.find("guard"), std::string::npos)
      << records[1].diagnosis->evidence;
}

// A case whose product hypothesis was checked element by element ran to the end (a kernel cut
// short leaves NaN, which no prediction gives): lab 7's wrong row stride, right on the shapes with
// m < k, reads past A on those with m > k, where memcheck ends the kernel. The hypothesis stays the
// primary, with memcheck's finding as a note at its line; the cut-short case's words go.
TEST(HostedMemcheck, ADiagnosisARunThatFinishedEstablishedStaysPrimary) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  records[1].verdict = Verdict::fail;
  records[1].fraction = 0;
  records[1].diagnosis = harness::make_diagnosis(
      "wrong_row_stride",
      "case integers 7x13 * 13x11: the result is what the wrong row length gives: A is read with "
      "rows of m = 7 elements " +
          harness::checked_elements_words(48, 11) + " (fits 1 of the 2 diagnosed failed cases)");
  contract::CaseResult finished;
  finished.name = "integers 7x13 * 13x11";
  finished.verdict = Verdict::fail;
  finished.diagnosis =
      harness::make_diagnosis("wrong_row_stride", "A is read with rows of m = 7 elements " +
                                                      harness::checked_elements_words(48, 11));
  contract::CaseResult cut;
  cut.name = "integers 13x7 * 7x11";
  cut.verdict = Verdict::fail;
  cut.diagnosis = harness::make_diagnosis("unwritten", "every element NaN");
  records[1].cases = {finished, cut};
  SanitizerPass pass{"compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  charge_hosted_findings(spec, pass, kOutOfBoundsRead, records);
  ASSERT_EQ(records[1].verdict, Verdict::fail);
  ASSERT_TRUE(records[1].diagnosis);
  EXPECT_EQ(records[1].diagnosis->id, "wrong_row_stride");
  ASSERT_TRUE(records[1].cases[0].diagnosis);
  EXPECT_EQ(records[1].cases[0].diagnosis->id, "wrong_row_stride");
  EXPECT_FALSE(records[1].cases[1].diagnosis);
  const auto also = std::find_if(records[1].notes.begin(), records[1].notes.end(),
                                 [](const std::string& n) { return n.starts_with("Also: "); });
  ASSERT_NE(also, records[1].notes.end());
  EXPECT_NE(also->find("kernel.cu:21"), std::string::npos) << *also;
  EXPECT_NE(also->find("cut short"), std::string::npos) << *also;
  // The same check whose diagnosis only a cut-short case named: memcheck's finding is primary.
  records = passed(spec);
  records[1].verdict = Verdict::fail;
  records[1].diagnosis = harness::make_diagnosis("unwritten", "case integers 13x7 * 7x11: NaN");
  records[1].cases = {finished, cut};
  charge_hosted_findings(spec, pass, kOutOfBoundsRead, records);
  ASSERT_TRUE(records[1].diagnosis);
  EXPECT_EQ(records[1].diagnosis->id, "reads_outside_inputs");
  ASSERT_TRUE(records[1].cases[0].diagnosis);  // still an "Also", with its own evidence
  EXPECT_EQ(records[1].cases[0].diagnosis->id, "wrong_row_stride");
}

// The pass runs apart from the graded run, which went to the end: a diagnosis it established
// stays primary, memcheck's finding a note; a check without one gets memcheck's.
TEST(SanitizeChecks, ADiagnosisOfTheFinishedRunStaysAndTheFindingIsANote) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  records[1].verdict = Verdict::fail;
  records[1].fraction = 0.5;
  records[1].diagnosis = harness::make_diagnosis("border_wrong", "the last 3 columns");
  const SanitizerPass pass{
      fake_sanitizer("fake-sanitizer-kept", kOutOfBoundsRead), {"memcheck"}, {"kernel.cu"}};
  sanitize_checks(spec, pass, fake_request(), records);
  ASSERT_EQ(records[1].verdict, Verdict::fail);
  ASSERT_TRUE(records[1].diagnosis);
  EXPECT_EQ(records[1].diagnosis->id, "border_wrong");
  const auto also = std::find_if(records[1].notes.begin(), records[1].notes.end(),
                                 [](const std::string& n) { return n.starts_with("Also: "); });
  ASSERT_NE(also, records[1].notes.end());
  EXPECT_NE(also->find("kernel.cu:21"), std::string::npos) << *also;
  EXPECT_EQ(also->find("cut short"), std::string::npos) << *also;
  auto clean = passed(spec);
  sanitize_checks(spec, pass, fake_request(), clean);
  ASSERT_TRUE(clean[1].diagnosis);
  EXPECT_EQ(clean[1].diagnosis->id, "reads_outside_inputs");
}

TEST(HostedMemcheck, ARunWithoutTheSummaryChangesNoVerdict) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  SanitizerPass pass{"compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  const std::string cut = std::string(kOutOfBoundsRead).substr(0, 200);
  const auto outcome = charge_hosted_findings(spec, pass, cut, records);
  ASSERT_EQ(outcome.problems.size(), 1u);
  for (const auto& record : records) EXPECT_EQ(record.verdict, Verdict::pass);
}

// A run killed at its time limit keeps the findings it printed whole: a kernel with thousands
// of bad accesses can be slow enough under memcheck to run out of time.
TEST(HostedMemcheck, ARunCutShortKeepsItsWholeFindings) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  SanitizerPass pass{"compute-sanitizer", {"memcheck"}, {"kernel.cu"}};
  pass.hosted_memcheck = true;
  std::string whole(kOutOfBoundsRead);
  whole = whole.substr(0, whole.find("========= ERROR SUMMARY"));
  const std::string cut = whole + std::string(kOutOfBoundsRead).substr(0, 120);
  const auto outcome = charge_hosted_findings(spec, pass, cut, records);
  EXPECT_EQ(outcome.findings, 1);
  EXPECT_EQ(outcome.problems.size(), 1u);  // the run did not finish: the log says so
  EXPECT_EQ(records[1].verdict, Verdict::fail);
  EXPECT_NE(records[1].reason.find("kernel.cu:21"), std::string::npos) << records[1].reason;
}

TEST(HostedMemcheck, ChecksLeftForThePlainRunAreTakenOut) {
  const auto spec = fake_spec();
  auto records = passed(spec);
  records[2].verdict = Verdict::skipped;
  records[2].reason = "left for the run without compute-sanitizer: integers 4096 is too large";
  records[0].verdict = Verdict::skipped;
  records[0].reason = "no GPU";
  EXPECT_EQ(take_checks_left_for_plain_run(records), std::vector<std::string>{"Lab.Third"});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].check, "Lab.First");
  EXPECT_EQ(records[1].check, "Lab.Second");
}

}  // namespace
}  // namespace batch
