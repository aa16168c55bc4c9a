// `labcheck sanitize`, the program ctest runs for compute-sanitizer, with stand-ins: a script in
// compute-sanitizer's place that runs the fake lab program as the real one runs its target and
// then prints what the real one printed for an out-of-bounds read (H100, CUDA 13.0), and an
// nvidia-smi that says whether a GPU answers. What it charges must reach the record, `labcheck
// verdict` and `labcheck report` as the batch's pass charges it.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "contract/record.hpp"
#include "test_support.hpp"

namespace {

using grader_test::run_shell;
using grader_test::write_file;

const char* const kSpec = R"({
  "lab": "lab0", "title": "Fake", "sanitizer": ["memcheck"],
  "checks": [
    {"id": "Lab.First", "kind": "correctness", "title": "first", "points": 4, "timeout_s": 5},
    {"id": "Lab.Second", "kind": "correctness", "title": "second", "points": 6, "timeout_s": 5}
  ]})";

const char* const kOutOfBoundsRead = R"(========= Invalid __global__ read of size 4 bytes
=========     at MatMulAnyKernel(const float *, const float *, float *, int, int, int)+0x290 in kernel.cu:21
=========     by thread (1,0,0) in block (0,0,0)
=========     Access to 0x7f4f52a00204 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f4f52a00200 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1
=========         Host Frame: Lab_Second_Test::TestBody() [0xaa289] in lab0
========= 
========= ERROR SUMMARY: 1 error
)";

const char* const kNoErrors = "========= ERROR SUMMARY: 0 errors\n";

std::string read_text(const std::filesystem::path& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct Fixture {
  std::filesystem::path dir;
  std::filesystem::path results;
  std::filesystem::path bin;        // on PATH first: the stand-in nvidia-smi
  std::string scenario = "honest";  // what the fake lab program does (FAKE_SCENARIO)

  explicit Fixture(const std::string& name)
      : dir(grader_test::scratch("sanitize-" + name)), results(dir / "results"), bin(dir / "bin") {
    std::filesystem::create_directories(bin);
    write_file(dir / "spec.json", kSpec);
    gpu(true);
  }
  ~Fixture() { std::filesystem::remove_all(dir); }

  void gpu(bool answers) {
    write_file(bin / "nvidia-smi", answers ? "#!/bin/sh\nexit 0\n" : "#!/bin/sh\nexit 9\n", true);
  }

  // The stand-in skips its option words up to the program (the first word that is not an option
  // or an option's value), notes its command line and LAB_SANITIZER_CASES, runs it, then prints
  // `report`.
  std::string sanitizer(const std::string& report) {
    const auto path = dir / "compute-sanitizer";
    write_file(path,
               "#!/bin/sh\necho \"$*\" > \"" + (dir / "sanitizer-args").string() +
                   "\"\necho \"cases=${LAB_SANITIZER_CASES:-every}\" >> \"" +
                   (dir / "sanitizer-args").string() +
                   "\"\nwhile [ \"${1#--}\" != \"$1\" ]; do shift 2; done\n\"$@\"\nstatus=$?\n"
                   "cat <<'REPORT'\n" +
                   report + "REPORT\nexit $status\n",
               true);
    return path.string();
  }

  grader_test::Result labcheck(const std::string& arguments) const {
    return run_shell("PATH='" + bin.string() + "':\"$PATH\" FAKE_SCENARIO=" + scenario +
                     " '" LABCHECK_PATH "' " + arguments);
  }

  // The graded run, as labN.run does it: every check passes.
  void run_the_checks() const {
    const auto ran = labcheck("run --spec '" + (dir / "spec.json").string() + "' --results '" +
                              results.string() + "' -- '" FAKE_LAB_PATH "'");
    ASSERT_EQ(ran.exit_code, 0) << ran.output;
  }

  grader_test::Result sanitize(const std::string& sanitizer_path, const std::string& more = "") {
    return labcheck("sanitize --spec '" + (dir / "spec.json").string() + "' --results '" +
                    results.string() + "' --sanitizer '" + sanitizer_path + "' " + more +
                    " -- '" FAKE_LAB_PATH "'");
  }

  contract::CheckRecord record(const std::string& check) const {
    return contract::read_record(contract::record_path(results, check));
  }
};

TEST(LabcheckSanitize, AFindingFailsItsCheckAtTheLineAndSaysThePointsLost) {
  Fixture f("charged");
  f.run_the_checks();
  const auto sanitized = f.sanitize(f.sanitizer(kOutOfBoundsRead));
  ASSERT_EQ(sanitized.exit_code, 0) << sanitized.output;
  EXPECT_EQ(f.record("Lab.First").verdict, contract::Verdict::pass);
  const auto second = f.record("Lab.Second");
  ASSERT_EQ(second.verdict, contract::Verdict::fail) << sanitized.output;
  EXPECT_EQ(second.fraction, 0);
  EXPECT_EQ(second.points, 0);
  EXPECT_NE(second.reason.find("compute-sanitizer memcheck"), std::string::npos) << second.reason;
  EXPECT_NE(second.reason.find("kernel.cu:21"), std::string::npos) << second.reason;
  EXPECT_NE(sanitized.output.find("loses 6 of its 6 points"), std::string::npos)
      << sanitized.output;
  // The batch's one command line, and the pass's first case only.
  const auto args = read_text(f.dir / "sanitizer-args");
  EXPECT_NE(args.find("--tool memcheck --target-processes application-only --print-limit 200 "
                      "--report-api-errors no"),
            std::string::npos)
      << args;
  EXPECT_NE(args.find("cases=first"), std::string::npos) << args;
}

TEST(LabcheckSanitize, VerdictAndReportShowTheChargeWithItsPoints) {
  Fixture f("shown");
  f.run_the_checks();
  ASSERT_EQ(f.sanitize(f.sanitizer(kOutOfBoundsRead)).exit_code, 0);
  const auto verdict =
      f.labcheck("verdict --results '" + f.results.string() + "' --check Lab.Second");
  EXPECT_EQ(verdict.exit_code, 1) << verdict.output;
  EXPECT_NE(verdict.output.find("kernel.cu:21"), std::string::npos) << verdict.output;
  EXPECT_NE(verdict.output.find("loses 6 of its 6 points"), std::string::npos) << verdict.output;
  EXPECT_EQ(
      f.labcheck("verdict --results '" + f.results.string() + "' --check Lab.First").exit_code, 0);
  const auto report = f.dir / "report.html";
  const auto rendered =
      f.labcheck("report --spec '" + (f.dir / "spec.json").string() + "' --results '" +
                 f.results.string() + "' --out '" + report.string() + "'");
  ASSERT_EQ(rendered.exit_code, 0) << rendered.output;
  EXPECT_NE(rendered.output.find("4 / 10"), std::string::npos) << rendered.output;
  const auto html = read_text(report);
  EXPECT_NE(html.find("kernel.cu:21"), std::string::npos);
  EXPECT_NE(html.find("compute-sanitizer memcheck"), std::string::npos);
}

TEST(LabcheckSanitize, NoFindingsChangeNothing) {
  Fixture f("clean");
  f.run_the_checks();
  const auto first = read_text(contract::record_path(f.results, "Lab.First"));
  const auto second = read_text(contract::record_path(f.results, "Lab.Second"));
  const auto sanitized = f.sanitize(f.sanitizer(kNoErrors));
  ASSERT_EQ(sanitized.exit_code, 0) << sanitized.output;
  EXPECT_EQ(read_text(contract::record_path(f.results, "Lab.First")), first);
  EXPECT_EQ(read_text(contract::record_path(f.results, "Lab.Second")), second);
}

TEST(LabcheckSanitize, WithoutComputeSanitizerOrAGpuItIsSkippedSayingWhy) {
  Fixture f("skipped");
  f.run_the_checks();
  const auto none = f.sanitize("");
  EXPECT_EQ(none.exit_code, 77) << none.output;
  EXPECT_NE(none.output.find("skipped: no compute-sanitizer"), std::string::npos) << none.output;
  const auto gone = f.sanitize((f.dir / "no-such-sanitizer").string());
  EXPECT_EQ(gone.exit_code, 77) << gone.output;
  EXPECT_EQ(gone.output.find(f.dir.string()), std::string::npos) << gone.output;
  f.gpu(false);
  const auto no_gpu = f.sanitize(f.sanitizer(kOutOfBoundsRead));
  EXPECT_EQ(no_gpu.exit_code, 77) << no_gpu.output;
  EXPECT_NE(no_gpu.output.find("skipped: no GPU for compute-sanitizer"), std::string::npos)
      << no_gpu.output;
  EXPECT_EQ(f.record("Lab.Second").verdict, contract::Verdict::pass);
}

// A run whose checks earned nothing (here: the lab program found no GPU) leaves the pass nothing
// to look at; a check that failed in the run has nothing left to lose, and is not run again: a
// finding that names it was attributed wrongly and goes to the first check the pass ran.
TEST(LabcheckSanitize, ChecksThatEarnedNothingAreLeftAlone) {
  Fixture f("nothing-earned");
  f.scenario = "no_gpu";
  f.run_the_checks();
  const auto nothing = f.sanitize(f.sanitizer(kOutOfBoundsRead));
  EXPECT_EQ(nothing.exit_code, 77) << nothing.output;
  EXPECT_NE(nothing.output.find("no correctness check earned points"), std::string::npos)
      << nothing.output;
  EXPECT_EQ(f.record("Lab.Second").verdict, contract::Verdict::skipped);
  Fixture crashed("crashed");
  crashed.scenario = "crash_second";
  crashed.run_the_checks();
  const auto before = crashed.record("Lab.Second").reason;
  const auto sanitized = crashed.sanitize(crashed.sanitizer(kOutOfBoundsRead));
  EXPECT_EQ(sanitized.exit_code, 0) << sanitized.output;
  EXPECT_EQ(crashed.record("Lab.Second").reason, before);
  EXPECT_EQ(crashed.record("Lab.First").verdict, contract::Verdict::fail);
}

// A known-wrong kernel (labN.must_fail.NAME.memcheck): caught when a finding in its file is
// charged to a check, over every case.
TEST(LabcheckSanitize, AKnownWrongKernelIsCaughtOnlyWhenAFindingIsCharged) {
  Fixture f("catch");
  const auto caught =
      f.sanitize(f.sanitizer(kOutOfBoundsRead), "--tool memcheck --expect-findings");
  EXPECT_EQ(caught.exit_code, 0) << caught.output;
  EXPECT_NE(caught.output.find("caught in Lab.Second"), std::string::npos) << caught.output;
  EXPECT_NE(read_text(f.dir / "sanitizer-args").find("cases=every"), std::string::npos);
  std::string notes;
  for (const auto& note : f.record("Lab.Second").notes) notes += note + "\n";
  EXPECT_NE(notes.find("ran on this check's cases"), std::string::npos) << notes;
  const auto clean = f.sanitize(f.sanitizer(kNoErrors), "--tool memcheck --expect-findings");
  EXPECT_EQ(clean.exit_code, 1) << clean.output;
  EXPECT_NE(clean.output.find("NOT CAUGHT"), std::string::npos) << clean.output;
  // The finding is in kernel.cu; the kernel under test is another file: not its finding.
  const auto elsewhere = f.sanitize(f.sanitizer(kOutOfBoundsRead),
                                    "--tool memcheck --student-file wrong.cu --expect-findings");
  EXPECT_EQ(elsewhere.exit_code, 1) << elsewhere.output;
}

// A right kernel (labN.must_pass.NAME.sanitizer) and the solutions (labN.solution.sanitizer):
// clean only when nothing is charged and the kit's own kernels have no finding either.
TEST(LabcheckSanitize, ARightKernelMustStayClean) {
  Fixture f("clean");
  const auto clean = f.sanitize(f.sanitizer(kNoErrors), "--expect-no-findings");
  EXPECT_EQ(clean.exit_code, 0) << clean.output;
  EXPECT_NE(clean.output.find("clean: compute-sanitizer"), std::string::npos) << clean.output;
  const auto charged = f.sanitize(f.sanitizer(kOutOfBoundsRead), "--expect-no-findings");
  EXPECT_EQ(charged.exit_code, 1) << charged.output;
  EXPECT_NE(charged.output.find("INNOCENT LOST POINTS: Lab.Second"), std::string::npos)
      << charged.output;
  std::string in_the_kit = kOutOfBoundsRead;
  in_the_kit.replace(in_the_kit.find("in kernel.cu:21"), 15, "in compare.cu:40");
  const auto kit = f.sanitize(f.sanitizer(in_the_kit), "--expect-no-findings");
  EXPECT_EQ(kit.exit_code, 1) << kit.output;
  EXPECT_NE(kit.output.find("KIT FINDING"), std::string::npos) << kit.output;
}

// A known-wrong kernel whose lab program found no usable GPU ran nothing to catch: skipped, as the
// deleted run_sanitizer.sh passed the program's 77 on, never "NOT CAUGHT".
TEST(LabcheckSanitize, AKnownWrongKernelWithNoUsableGpuIsSkipped) {
  Fixture f("catch-no-gpu");
  f.scenario = "no_gpu";
  const auto nothing = f.sanitize(f.sanitizer(kNoErrors), "--tool memcheck --expect-findings");
  EXPECT_EQ(nothing.exit_code, 77) << nothing.output;
  EXPECT_NE(nothing.output.find("skipped: the lab program ran no check"), std::string::npos)
      << nothing.output;
}

}  // namespace
