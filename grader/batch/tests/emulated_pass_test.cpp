// The batch's emulated pass: which checks get it, what counts as a finding, how findings fail the
// GPU's records, where its kit comes from, and a pass run end to end with a stand-in emulation
// kit (its compiler and linker `true`, its lab program the fake one) that finds, crashes or
// finds nothing.
#include "batch/emulated_pass.hpp"
#include "batch/evidence_share.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace batch {
namespace {

namespace fs = std::filesystem;
using contract::CheckRecord;
using contract::Verdict;

const char* const kFinding =
    "the CPU emulation found an access outside the memory it was given in your kernel (the "
    "results can look right, but the code is wrong): kernel.cu:18 (K), thread (0,2,0) of block "
    "(0,0,0): invalid read of 4 bytes at A + 8 bytes (A[2])";

CheckRecord record(const std::string& check, Verdict verdict, double fraction,
                   const std::string& backend = "cuda") {
  CheckRecord r;
  r.check = check;
  r.kind = "correctness";
  r.verdict = verdict;
  r.fraction = fraction;
  r.backend = backend;
  r.reason = verdict == Verdict::pass ? "right" : "wrong";
  return r;
}

// A kit folder as cmake/GradingKit.cmake writes one; its lab program is the fake one.
fs::path make_kit(const std::string& name, const std::string& backend, const std::string& lab,
                  const std::string& emulation_kit = "") {
  const fs::path dir = fs::temp_directory_path() /
                       ("labgrade-emulated-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "lib");
  for (const char* library : {"libharness.a", "libharness_core.a", "liblabs_contract.a"}) {
    std::ofstream(dir / "lib" / library) << "";
  }
  std::ofstream(dir / "spec.json") << R"({"lab": ")" << lab << R"(", "title": "Fake", "checks": [
      {"id": "Lab.First", "kind": "correctness", "title": "first", "points": 1, "timeout_s": 5},
      {"id": "Lab.Second", "kind": "correctness", "title": "second", "points": 1, "timeout_s": 5},
      {"id": "Lab.Speed", "kind": "speed", "title": "speed", "points": 1, "timeout_s": 5}]})";
  std::ofstream(dir / "kit.json") << R"({"lab": ")" << lab << R"(", "folder": "lab0-fake",
      "backend": ")" << backend << R"(", "spec": ")"
                                  << (dir / "spec.json").string() << R"(",
      "handout": "README.md", "program": ")"
                                  << FAKE_LAB_PATH << R"(",
      "nvcc": "/bin/true", "cxx": "/bin/true", "compile": [], "link": [], "read_only": [],
      "optional_sources": ["bonus.cu"], "emulation_kit": ")"
                                  << emulation_kit << R"("})";
  return dir;
}

TEST(EmulatedPass, CorrectnessChecksThatEarnedSomethingOrFaultedAreRunAgain) {
  const auto kit = load_kit(make_kit("checks", "emulation", "lab0"));
  std::vector<CheckRecord> records{
      record("Lab.First", Verdict::pass, 1), record("Lab.Second", Verdict::fail, 0),
      record("Lab.Speed", Verdict::pass, 1), record("Lab.Unknown", Verdict::pass, 1)};
  records[2].kind = "speed";
  EXPECT_EQ(checks_for_emulated_pass(kit.spec, records), std::vector<std::string>{"Lab.First"});
  records[1].fraction = 0.5;  // partial credit is something to lose
  EXPECT_EQ(checks_for_emulated_pass(kit.spec, records),
            (std::vector<std::string>{"Lab.First", "Lab.Second"}));
  // A kernel that faulted earns nothing, but the emulator can name its line.
  records[1].fraction = 0;
  records[1].reason =
      "1 of 5 cases wrong; first: ...: K failed while running: "
      "CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)";
  EXPECT_EQ(checks_for_emulated_pass(kit.spec, records),
            (std::vector<std::string>{"Lab.First", "Lab.Second"}));
  // Left to the speed run by the hosted memcheck run: not known to earn yet, run all the same.
  EXPECT_EQ(checks_for_emulated_pass(kit.spec, {}, {"Lab.Second", "Lab.Speed", "Lab.Unknown"}),
            std::vector<std::string>{"Lab.Second"});
}

TEST(EmulatedPass, AFindingIsTheEmulationsWordsWithItsFurtherReports) {
  auto found = record("Lab.First", Verdict::fail, 0, "emulation: x");
  found.reason = kFinding;
  found.notes = {"device buffer A at 0x10, 4 bytes", "kernel.cu:19 (K): invalid read",
                 "bonus.cu:3 (L): invalid write"};
  // Failed in the emulation for another reason: its finding is a note there.
  auto noted = record("Lab.Second", Verdict::fail, 0, "emulation: x");
  noted.notes = {
      std::string("the CPU emulation found a race on shared memory in your kernel: "
                  "kernel.cu:7 and kernel.cu:9")};
  const auto clean = record("Lab.Third", Verdict::pass, 1, "emulation: x");
  const auto findings = read_emulated_findings(
      {found, noted, clean}, {"Lab.First", "Lab.Second", "Lab.Third"}, {"kernel.cu", "bonus.cu"});
  ASSERT_EQ(findings.words.size(), 2u);
  EXPECT_EQ(findings.words.at("Lab.First"),
            (std::vector<std::string>{kFinding, "kernel.cu:19 (K): invalid read",
                                      "bonus.cu:3 (L): invalid write"}));
  ASSERT_EQ(findings.words.at("Lab.Second").size(), 1u);
  EXPECT_NE(findings.words.at("Lab.Second")[0].find("race"), std::string::npos);
  EXPECT_TRUE(findings.unfinished.empty());
}

// The grader's own record (the program crashed, hung, or never got there) is no finding: that
// check's pass did not finish, and a student never loses points to it.
TEST(EmulatedPass, ACheckTheProgramDidNotRecordDidNotFinish) {
  auto crashed = record("Lab.First", Verdict::fail, 0, "");
  crashed.reason = std::string("stopped: ") + kFinding;  // whatever it says, the grader wrote it
  const auto findings = read_emulated_findings({crashed}, {"Lab.First", "Lab.Second"}, {});
  EXPECT_TRUE(findings.words.empty());
  EXPECT_EQ(findings.unfinished, (std::vector<std::string>{"Lab.First", "Lab.Second"}));
}

TEST(EmulatedPass, AFindingFailsAnEarningRecordAndIsANoteOnAFailedOne) {
  EmulatedFindings findings;
  findings.words["Lab.First"] = {kFinding, "kernel.cu:19 (K): invalid read"};
  findings.words["Lab.Second"] = {kFinding};
  std::vector<CheckRecord> records{record("Lab.First", Verdict::pass, 1),
                                   record("Lab.Second", Verdict::fail, 0),
                                   record("Lab.Third", Verdict::pass, 1)};
  records[0].diagnosis = contract::Diagnosis{};
  EXPECT_EQ(apply_emulated_findings(findings, records), 1);
  EXPECT_EQ(records[0].verdict, Verdict::fail);
  EXPECT_EQ(records[0].fraction, 0);
  EXPECT_FALSE(records[0].diagnosis.has_value());
  EXPECT_EQ(records[0].reason, kFinding);
  ASSERT_EQ(records[0].notes.size(), 2u);
  EXPECT_EQ(records[0].notes[0], "kernel.cu:19 (K): invalid read");
  EXPECT_NE(records[0].notes[1].find("the CPU emulation ran this check's first case"),
            std::string::npos);
  EXPECT_EQ(records[1].reason, "wrong");  // its own reason stays
  EXPECT_EQ(records[1].notes, std::vector<std::string>{kFinding});
  records[1].notes = {"an earlier note"};
  apply_emulated_findings(findings, records);
  EXPECT_EQ(records[1].notes, (std::vector<std::string>{kFinding, "an earlier note"}));
  EXPECT_EQ(records[2].verdict, Verdict::pass);
}

// What the emulator measured reaches the GPU's records, speed included, and names a slow speed
// check's cause; a verdict or a point never moves.
TEST(EmulatedPass, ItsEvidenceReachesEveryRecordAndNamesASlowChecksCause) {
  CheckRecord emulated = record("T.Correct", Verdict::pass, 1, "emulation: CPU");
  emulated.evidence = {{"bank_conflict", "emulation", "kernel.cu", 23, "transpose",
                        "kernel.cu:23 (transpose): reading tile: 32-way bank conflict", 32, 1},
                       {"aliasing_write", "emulation", "kernel.cu", 30, "transpose", "both", 2, 0}};
  const auto findings = read_emulated_findings({emulated}, {"T.Correct"}, {"kernel.cu"});
  ASSERT_EQ(findings.evidence.size(), 1u);
  EXPECT_EQ(findings.evidence[0].check, "T.Correct");
  ASSERT_EQ(findings.evidence[0].facts.size(), 2u);

  CheckRecord slow = record("T.Speed", Verdict::fail, 0);
  slow.kind = "speed";
  slow.timing = contract::Timing{};
  slow.timing->ratio = 0.2;
  slow.timing->threshold = 0.6;
  slow.timing->reference_name = "cudaMemcpy device to device";
  slow.diagnosis = contract::Diagnosis{"slow_kernel", "slow", "20%", "", "", {}};
  CheckRecord fast = slow;
  fast.check = "T.Fast";
  fast.verdict = Verdict::pass;
  fast.fraction = 1;
  fast.diagnosis.reset();
  CheckRecord other = slow;
  other.check = "U.Speed";  // another function's kernel: not its facts
  CheckRecord structure = record("T.Shape", Verdict::pass, 1);
  structure.kind = "structure";  // its own run measured nothing: nothing to show
  std::vector<CheckRecord> records{record("T.Correct", Verdict::pass, 1), slow, fast, other,
                                   structure};
  share_evidence(findings.evidence, records);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(records[i].evidence.size(), 2u) << records[i].check;
  EXPECT_TRUE(records[3].evidence.empty());
  EXPECT_EQ(records[3].diagnosis->id, "slow_kernel");
  EXPECT_TRUE(records[4].evidence.empty());
  ASSERT_TRUE(records[1].diagnosis.has_value());
  EXPECT_EQ(records[1].diagnosis->id, "bank_conflicts");
  EXPECT_NE(records[1].diagnosis->evidence.find("20% of cudaMemcpy"), std::string::npos)
      << records[1].diagnosis->evidence;
  EXPECT_EQ(records[1].verdict, Verdict::fail);
  EXPECT_EQ(records[1].fraction, 0);
  EXPECT_FALSE(records[2].diagnosis.has_value()) << "a passed check gets no diagnosis";
  EXPECT_EQ(records[2].verdict, Verdict::pass);

  // A record with facts of its own keeps them; a cause already named stays.
  std::vector<CheckRecord> named{slow};
  named[0].diagnosis->id = "uncoalesced_access";
  named[0].evidence = {emulated.evidence[1]};
  share_evidence(findings.evidence, named);
  EXPECT_EQ(named[0].evidence.size(), 1u);
  EXPECT_EQ(named[0].diagnosis->id, "uncoalesced_access");
}

TEST(EmulatedPass, TheKitComesFromKitJsonOrTheOptionAndMustBeAnEmulationKitOfTheLab) {
  const auto emulation = make_kit("emu", "emulation", "lab0");
  const auto gpu = load_kit(make_kit("gpu", "cuda", "lab0", emulation.string()));
  EXPECT_EQ(gpu.emulation_kit, emulation);
  const auto from_kit = emulated_pass_of("", gpu);
  ASSERT_TRUE(from_kit.has_value());
  EXPECT_EQ(from_kit->kit.dir, emulation);
  EXPECT_EQ(from_kit->student_files, (std::vector<std::string>{"kernel.cu", "bonus.cu"}));
  EXPECT_FALSE(emulated_pass_of("off", gpu).has_value());
  EXPECT_FALSE(emulated_pass_of("", load_kit(make_kit("bare", "cuda", "lab0"))).has_value());
  const auto words_of = [&](const fs::path& dir) {
    try {
      emulated_pass_of(dir.string(), gpu);
    } catch (const KitError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(words_of(make_kit("other-gpu", "cuda", "lab0")).find("emulation build's kit"),
            std::string::npos);
  EXPECT_NE(words_of(make_kit("other-lab", "emulation", "lab1")).find("is for lab1"),
            std::string::npos);
}

// The whole pass with the stand-in kit: the fake lab program plays the emulation's.
EmulatedOutcome run_fake_pass(const std::string& scenario) {
  const EmulatedPass pass{load_kit(make_kit("run-" + scenario, "emulation", "lab0")),
                          {"kernel.cu"}};
  EmulatedRun run;
  run.scratch = fs::temp_directory_path() /
                ("labgrade-emulated-scratch-" + scenario + "-" + std::to_string(::getpid()));
  fs::remove_all(run.scratch);
  fs::create_directories(run.scratch);
  std::ofstream(run.scratch / "kernel.cu") << "// a kernel\n";
  run.checks = {"Lab.First", "Lab.Second"};
  run.base_policy.isolate = false;
  run.base_policy.env.emplace_back("FAKE_SCENARIO", scenario);
  return run_emulated_pass(pass, run);
}

TEST(EmulatedPass, ARunThatFindsNothingChangesNothing) {
  const auto outcome = run_fake_pass("honest");
  EXPECT_TRUE(outcome.findings.words.empty());
  EXPECT_TRUE(outcome.findings.unfinished.empty());
  EXPECT_TRUE(outcome.problems.empty());
}

TEST(EmulatedPass, ARunsFindingIsTheLabProgramsRecord) {
  const auto outcome = run_fake_pass("emulation_finds_second");
  ASSERT_EQ(outcome.findings.words.count("Lab.Second"), 1u);
  EXPECT_EQ(outcome.findings.words.at("Lab.Second").size(), 2u);  // and kernel.cu:19's report
  EXPECT_EQ(outcome.findings.words.count("Lab.First"), 0u);
  EXPECT_TRUE(outcome.problems.empty());
}

TEST(EmulatedPass, ARunThatDoesNotFinishIsAProblemNotAFinding) {
  const auto outcome = run_fake_pass("crash_second");
  EXPECT_TRUE(outcome.findings.words.empty());
  EXPECT_EQ(outcome.findings.unfinished, std::vector<std::string>{"Lab.Second"});
  ASSERT_EQ(outcome.problems.size(), 1u);
  EXPECT_NE(outcome.problems[0].find("did not finish Lab.Second"), std::string::npos)
      << outcome.problems[0];
  EXPECT_FALSE(outcome.log.empty());  // how it ended, for the instructor
}

}  // namespace
}  // namespace batch
