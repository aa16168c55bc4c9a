// compute-sanitizer's reports (batch/sanitizer_report.hpp): excerpts of real CUDA 13 runs on an
// H100 of the labs' known-wrong kernels (host backtraces shortened), the same with a student's
// output mixed in or cut anywhere, and the sentences a student reads.
#include "batch/sanitizer_report.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace batch {
namespace {

using Buffers = std::vector<contract::DeviceBufferPlace>;

const std::vector<std::string> kLab7Checks{"AnySize.Integers", "AnySize.Reals"};

// lab7, a kernel without the bounds check on its loads (nlb7): two of the four reports.
const std::string kLoadPastTheEnd = R"txt(========= COMPUTE-SANITIZER
lab7 (Tiled matrix multiplication of any size): seed 957760139 (replay with LAB_SEED=957760139 or --seed 957760139)
Note: Google Test filter = AnySize.Integers:AnySize.Reals
[==========] Running 2 tests from 1 test suite.
[ RUN      ] AnySize.Integers
========= Invalid __global__ read of size 4 bytes
=========     at MatMulAnyKernel(const float *, const float *, float *, int, int, int)+0x290 in no_load_bounds_check.cu:21
=========     by thread (1,0,0) in block (0,0,0)
=========     Access to 0x7f4f52a00204 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f4f52a00200 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1
=========         Host Frame: matmul_tiled_any(float const*, float const*, float*, int, int, int) [0xae8e4] in lab7
=========         Host Frame: AnySize_Integers_check_body(harness::Check&) [0xaad8b] in lab7
=========         Host Frame: AnySize_Integers_Test::TestBody() [0xaa289] in lab7
=========         Host Frame: testing::Test::Run() [0x1a2f95] in lab7
=========         Host Frame: main [0xa7ef2] in lab7
========= 
========= Invalid __global__ read of size 4 bytes
=========     at MatMulAnyKernel(const float *, const float *, float *, int, int, int)+0x290 in no_load_bounds_check.cu:21
=========     by thread (2,0,0) in block (0,0,0)
=========     Access to 0x7f4f52a00208 is out of bounds
=========     and is 5 bytes after the nearest allocation at 0x7f4f52a00200 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1
=========         Host Frame: AnySize_Integers_Test::TestBody() [0xaa289] in lab7
=========         Host Frame: main [0xa7ef2] in lab7
========= 
AnySize.Integers [fail]: 1 of 1 cases wrong; first: integers 1x1 * 1x1: matmul_tiled_any(A, B, C, 1, 1, 1): MatMulAnyKernel(float const*, float const*, float*, int, int, int) with grid (1, 1, 1) and block (16, 16, 1) failed while running: CUDA_ERROR_LAUNCH_FAILED (unspecified launch failure)
[  FAILED  ] AnySize.Integers (691 ms)
[ RUN      ] AnySize.Reals
AnySize.Reals [fail]: 11 of 11 cases wrong; first: reals 1x1 * 1x1: the lab program's cudaMalloc failed: cudaErrorLaunchFailure (unspecified launch failure)
[  FAILED  ] AnySize.Reals (0 ms)
 2 FAILED TESTS
========= Target application returned an error
========= ERROR SUMMARY: 255 errors
========= ERROR SUMMARY: 251 errors were not printed. Use --print-limit option to adjust the number of printed errors
)txt";

// lab7, no bounds check on the store (nsb7): one report.
const std::string kStorePastTheEnd = R"txt([ RUN      ] AnySize.Integers
========= Invalid __global__ write of size 4 bytes
=========     at MatMulAnyKernel(const float *, const float *, float *, int, int, int)+0x660 in no_store_bounds_check.cu:26
=========     by thread (1,0,0) in block (0,0,0)
=========     Access to 0x7f656ca00404 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f656ca00400 of size 4 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: cuLaunchKernel [0x39fb94] in libcuda.so.1
=========         Host Frame: AnySize_Integers_Test::TestBody() [0xaa289] in lab7
========= 
========= Target application returned an error
)txt";

// lab2, no bounds guard (nbg2), with its host backtrace left out: the [ RUN ] line names the check.
const std::string kNaiveWithoutBacktrace = R"txt([ RUN      ] MatmulNaive.Integers
========= Invalid __global__ read of size 4 bytes
=========     at MatrixMulKernel(const float *, const float *, float *, int)+0xb90 in no_bounds_guard.cu:11
=========     by thread (1,0,0) in block (0,0,0)
=========     Access to 0x7fc2f8a00204 is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7fc2f8a00200 of size 4 bytes
========= 
MatmulNaive.Integers: Failure
)txt";

// lab6, no __syncthreads() before the tile's products (ms6): two races, the first one's
// partners shortened to four.
const std::string kMissingSync = R"txt(========= COMPUTE-SANITIZER
lab6 (Tiled matrix multiplication): seed 740099538 (replay with LAB_SEED=740099538 or --seed 740099538)
[ RUN      ] TiledMatmul.Integers
========= Error: Race reported between Write access at MatrixMulKernel(const float *, const float *, float *, int)+0x310 in missing_sync_before_compute.cu:18
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x320 in missing_sync_before_compute.cu:19 [960 hazards]
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x340 in missing_sync_before_compute.cu:19 [832 hazards]
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x350 in missing_sync_before_compute.cu:19 [640 hazards]
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x360 in missing_sync_before_compute.cu:19 [512 hazards]
========= 
========= Warning: Race reported between Write access at MatrixMulKernel(const float *, const float *, float *, int)+0x300 in missing_sync_before_compute.cu:17
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x330 in missing_sync_before_compute.cu:19 [2048 hazards]
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x380 in missing_sync_before_compute.cu:19 [2048 hazards]
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x410 in missing_sync_before_compute.cu:19 [2048 hazards]
=========     and Read access at MatrixMulKernel(const float *, const float *, float *, int)+0x4a0 in missing_sync_before_compute.cu:19 [2048 hazards]
========= 
TiledMatmul.Integers [fail]: 1 of 1 cases wrong; first: integers 32x32 * 32x32: 705 of 1024 elements wrong; first at (row 2, col 1): expected 2, got 0
[  FAILED  ] TiledMatmul.Integers (1174 ms)
========= Target application returned an error
========= RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)
)txt";

// One memcheck block of the given header and place, as the sanitizer prints it.
std::string memcheck_block(const std::string& header, const std::string& place,
                           const std::string& access) {
  return "========= " + header + "\n=========     at " + place +
         "\n=========     by thread (0,0,0) in block (0,0,0)\n=========     " + access +
         "\n========= \n";
}

int total_reports(const std::vector<SanitizerFinding>& findings) {
  int total = 0;
  for (const auto& finding : findings) total += 1 + finding.like_it;
  return total;
}

TEST(SanitizerReport, ReadsPastTheEndAreOneFindingOfTheCheckInTheBacktrace) {
  const auto findings = parse_sanitizer_output("memcheck", kLoadPastTheEnd, kLab7Checks);
  ASSERT_EQ(findings.size(), 1u);
  const auto& finding = findings[0];
  EXPECT_EQ(finding.tool, "memcheck");
  EXPECT_EQ(finding.check, "AnySize.Integers");
  EXPECT_EQ(finding.what, "Invalid __global__ read of size 4 bytes");
  EXPECT_EQ(finding.kernel, "MatMulAnyKernel");
  EXPECT_EQ(finding.file, "no_load_bounds_check.cu");
  EXPECT_EQ(finding.line, 21);
  EXPECT_EQ(finding.thread, "(1,0,0)");
  EXPECT_EQ(finding.block, "(0,0,0)");
  EXPECT_EQ(finding.address, 0x7f4f52a00204u);
  EXPECT_EQ(finding.nearest_base, 0x7f4f52a00200u);
  EXPECT_EQ(finding.nearest_bytes, 4u);
  EXPECT_EQ(finding.like_it, 1);  // thread (2,0,0), the same line
}

TEST(SanitizerReport, WritesPastTheEnd) {
  const auto findings = parse_sanitizer_output("memcheck", kStorePastTheEnd, kLab7Checks);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].what, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(findings[0].file, "no_store_bounds_check.cu");
  EXPECT_EQ(findings[0].line, 26);
  EXPECT_EQ(findings[0].check, "AnySize.Integers");
  EXPECT_EQ(findings[0].address, 0x7f656ca00404u);
  EXPECT_EQ(findings[0].like_it, 0);
}

TEST(SanitizerReport, WithoutABacktraceTheRunningCheckOwnsTheFinding) {
  const auto findings =
      parse_sanitizer_output("memcheck", kNaiveWithoutBacktrace, {"MatmulNaive.Integers"});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].check, "MatmulNaive.Integers");
  EXPECT_EQ(findings[0].kernel, "MatrixMulKernel");
  EXPECT_EQ(findings[0].line, 11);
}

TEST(SanitizerReport, TheBacktraceWinsOverTheRunLineAndMapsBackThroughTheCheckIds) {
  const std::string output =
      "[ RUN      ] AnySize.Integers\n" +
      memcheck_block("Invalid __global__ read of size 4 bytes", "K(float *)+0x10 in kernel.cu:5",
                     "Access to 0x7f0000000100 is out of bounds") +
      "=========         Host Frame: Any_Size_Reals_Test::TestBody() [0x1]\n";
  // The frame comes after the block's end here: it is not the block's.
  EXPECT_EQ(
      parse_sanitizer_output("memcheck", output, {"AnySize.Integers", "Any_Size.Reals"})[0].check,
      "AnySize.Integers");

  std::string inside = output;
  inside.erase(inside.find("========= \n"), 11);  // the frame now ends the block
  const std::vector<std::string> ids{"AnySize.Integers", "Any_Size.Reals", "AnySize.Reals"};
  EXPECT_EQ(parse_sanitizer_output("memcheck", inside, ids)[0].check, "Any_Size.Reals");
  // A frame of no check: the [ RUN ] line decides.
  EXPECT_EQ(parse_sanitizer_output("memcheck", inside, {"AnySize.Integers"})[0].check,
            "AnySize.Integers");
}

TEST(SanitizerReport, RacesGoToTheRunningCheck) {
  const auto findings = parse_sanitizer_output("racecheck", kMissingSync, {"TiledMatmul.Integers"});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].tool, "racecheck");
  EXPECT_EQ(findings[0].check, "TiledMatmul.Integers");
  EXPECT_EQ(findings[0].what,
            "Race between a write (line 18) and a read (line 19) of shared memory");
  EXPECT_EQ(findings[0].kernel, "MatrixMulKernel");
  EXPECT_EQ(findings[0].file, "missing_sync_before_compute.cu");
  EXPECT_EQ(findings[0].line, 18);
  EXPECT_EQ(findings[0].other_line, 19);
  EXPECT_EQ(findings[0].hazards, 960u + 832u + 640u + 512u);
  EXPECT_EQ(findings[0].thread, "");
  EXPECT_EQ(findings[0].like_it, 0);
  EXPECT_EQ(findings[1].what,
            "Race between a write (line 17) and a read (line 19) of shared memory");
  EXPECT_EQ(findings[1].line, 17);
  EXPECT_EQ(findings[1].hazards, 4u * 2048u);
}

// The lab program relays a launcher's text behind "| " (launcher_session.cpp); a run line printed
// there, or anywhere but at a line's start, is the student's and moves no finding.
TEST(SanitizerReport, ARunLineNotAtALinesStartIsNotTheProgramsAndMovesNoFinding) {
  for (const std::string fake :
       {"| [ RUN      ] TiledMatmul.Speed", "printed [ RUN      ] TiledMatmul.Speed"}) {
    std::string output = kMissingSync;
    const auto after_run = output.find('\n', output.find("[ RUN      ]")) + 1;
    output.insert(after_run, fake + "\n");
    const auto findings =
        parse_sanitizer_output("racecheck", output, {"TiledMatmul.Integers", "TiledMatmul.Speed"});
    ASSERT_EQ(findings.size(), 2u) << fake;
    EXPECT_EQ(findings[0].check, "TiledMatmul.Integers") << fake;
    EXPECT_EQ(findings[1].check, "TiledMatmul.Integers") << fake;
  }
}

TEST(SanitizerReport, ARaceBeforeAnyKnownRunLineHasNoCheck) {
  const std::string race = kMissingSync.substr(kMissingSync.find("========= Error"));
  EXPECT_EQ(parse_sanitizer_output("racecheck", race, {"TiledMatmul.Integers"})[0].check, "");
  // A test that is none of the checks ends the attribution to the one before it.
  const std::string after_other =
      "[ RUN      ] TiledMatmul.Integers\n[ RUN      ] Other.Test\n" + race;
  EXPECT_EQ(parse_sanitizer_output("racecheck", after_other, {"TiledMatmul.Integers"})[0].check,
            "");
  // Without check ids, any test's name.
  EXPECT_EQ(parse_sanitizer_output("racecheck", after_other, {})[0].check, "Other.Test");
}

TEST(SanitizerReport, ARaceWithPartnersOnTwoLinesIsTwoFindings) {
  const auto findings = parse_sanitizer_output("racecheck", R"txt([ RUN      ] Tiled.Reals
========= Error: Race reported between Write access at K(float *)+0x10 in /sandbox/work/kernel.cu:30
=========     and Read access at K(float *)+0x20 in /sandbox/work/kernel.cu:31 [1,024 hazards]
=========     and Write access at K(float *)+0x30 in /sandbox/work/kernel.cu:30 [2 hazards]
=========     and Read access at K(float *)+0x40 in /sandbox/work/kernel.cu:31 [1 hazards]
)txt",
                                               {"Tiled.Reals"});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].what,
            "Race between a write (line 30) and a read (line 31) of shared memory");
  EXPECT_EQ(findings[0].hazards, 1025u);
  EXPECT_EQ(findings[0].file, "kernel.cu");
  EXPECT_EQ(findings[1].what,
            "Race between a write (line 30) and a write (line 30) of shared memory");
  EXPECT_EQ(findings[1].other_line, 30);
}

TEST(SanitizerReport, EachToolReadsItsOwnReports) {
  EXPECT_TRUE(parse_sanitizer_output("memcheck", kMissingSync, {}).empty());
  EXPECT_TRUE(parse_sanitizer_output("racecheck", kLoadPastTheEnd, kLab7Checks).empty());
  EXPECT_EQ(parse_sanitizer_output("", kMissingSync + kLoadPastTheEnd, kLab7Checks).size(), 3u);
}

TEST(SanitizerReport, SharedMemoryMisalignedAndHardwareExceptions) {
  const std::string output =
      memcheck_block("Invalid __shared__ write of size 4 bytes",
                     "TiledKernel(const float *, float *, int)+0x1a0 in kernel.cu:30",
                     "Address 0x400 is out of bounds") +
      memcheck_block("Invalid __global__ read of size 8 bytes",
                     "void Wide<2>(const double *)+0x40 in kernel.cu:12",
                     "Address 0x7f0000000204 is misaligned") +
      memcheck_block("Warp Misaligned Address", "Wide2(const double *)+0x50 in kernel.cu:14",
                     "Saved host backtrace up to driver entry point at kernel launch time");
  const auto findings = parse_sanitizer_output("memcheck", output, {});
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].what, "Invalid __shared__ write of size 4 bytes");
  EXPECT_EQ(findings[0].address, 0x400u);
  EXPECT_FALSE(findings[0].nearest_base);
  EXPECT_EQ(findings[1].what, "Invalid __global__ read of size 8 bytes, misaligned");
  EXPECT_EQ(findings[1].kernel, "Wide<2>");
  EXPECT_EQ(findings[2].what, "Warp Misaligned Address");
  EXPECT_EQ(findings[2].line, 14);
  EXPECT_FALSE(findings[2].address);
}

TEST(SanitizerReport, ApiErrorsAndSummariesAreNoFindings) {
  const std::string output = R"txt([ RUN      ] AnySize.Integers
========= Program hit cudaErrorIllegalAddress (error 700) due to "an illegal memory access was encountered" on CUDA API call to cudaDeviceSynchronize.
=========     Saved host backtrace up to driver entry point at error
=========         Host Frame: AnySize_Integers_Test::TestBody() [0xaa289] in lab7
=========     at K(float *)+0x10 in kernel.cu:5
========= 
========= Error: process didn't terminate successfully
========= LEAK SUMMARY: 0 bytes leaked in 0 allocations
========= ERROR SUMMARY: 1 error
)txt";
  EXPECT_TRUE(parse_sanitizer_output("memcheck", output, kLab7Checks).empty());
  EXPECT_TRUE(parse_sanitizer_output("racecheck", output, kLab7Checks).empty());
}

TEST(SanitizerReport, PlacesWithoutLineInfoWithDirectoriesAndOfCudaMemcheck) {
  const std::string output =
      memcheck_block("Invalid __global__ read of size 4 bytes",
                     "MatMulAnyKernel(const float *, const float *, float *, int, int, int)+0x290",
                     "Access to 0x7f4f52a00204 is out of bounds") +
      memcheck_block("Invalid __global__ read of size 4 bytes",
                     "K(float *)+0x10 in /tmp/sandbox-91/work/kernel.cu:7",
                     "Access to 0x87654320 is out of bounds\n=========     and is 8,867,934,240 "
                     "bytes before the nearest allocation at 0x7f6510c00000 of size 1,024 bytes") +
      memcheck_block("Invalid __global__ read of size 8",
                     "0x000000c8 in /home/u/Debug/../src/my_helper.cuh:75:void "
                     "vector_projection<double>(double*, int)",
                     "Address 0x000370e8 is out of bounds");
  const auto findings = parse_sanitizer_output("memcheck", output, {});
  ASSERT_EQ(findings.size(), 3u);
  EXPECT_EQ(findings[0].kernel, "MatMulAnyKernel");
  EXPECT_EQ(findings[0].file, "");
  EXPECT_EQ(findings[0].line, 0);
  EXPECT_EQ(findings[1].file, "kernel.cu");
  EXPECT_EQ(findings[1].line, 7);
  EXPECT_EQ(findings[1].nearest_base, 0x7f6510c00000u);
  EXPECT_EQ(findings[1].nearest_bytes, 1024u);
  EXPECT_EQ(findings[2].kernel, "vector_projection<double>");
  EXPECT_EQ(findings[2].file, "my_helper.cuh");
  EXPECT_EQ(findings[2].line, 75);
  EXPECT_EQ(findings[2].address, 0x370e8u);
}

TEST(SanitizerReport, GarbageIsIgnoredAndNeverThrows) {
  EXPECT_TRUE(parse_sanitizer_output("memcheck", "", kLab7Checks).empty());
  EXPECT_TRUE(parse_sanitizer_output("memcheck",
                                     "=========\n========= \n=========     at \n"
                                     "=========     by thread (\n=========     Access to 0x\n"
                                     "[ RUN      ] \n========= Invalid __\n=========     Access to "
                                     "0xffffffffffffffffffff is out\n",
                                     kLab7Checks)
                  .size() == 1);
  // Every cut of the real outputs, and random bytes.
  const std::string all = kLoadPastTheEnd + kMissingSync + kStorePastTheEnd;
  for (std::size_t cut = 0; cut <= all.size(); ++cut) {
    EXPECT_NO_THROW(parse_sanitizer_output("", std::string_view(all).substr(0, cut), kLab7Checks));
    EXPECT_NO_THROW(parse_sanitizer_output("", std::string_view(all).substr(cut), kLab7Checks));
  }
  std::mt19937 random(2024);
  for (int round = 0; round < 200; ++round) {
    std::string mutated = all;
    for (int flip = 0; flip < 40; ++flip) {
      mutated[random() % mutated.size()] = static_cast<char>(random() % 256);
    }
    EXPECT_NO_THROW(parse_sanitizer_output("", mutated, kLab7Checks));
  }
}

// A kernel's printf goes to the same output: what a student prints can add a finding, never
// hide a real one.
TEST(SanitizerReport, FakeLinesOnlyAddFindings) {
  const std::vector<std::string> fakes{
      "========= ",
      "=========",
      "========= ERROR SUMMARY: 0 errors",
      "========= Invalid __global__ read of size 4 bytes",
      "========= Error: Race reported between Read access at Fake() in kernel.cu:1",
      "=========     at Fake()+0x0 in kernel.cu:99",
      "=========     by thread (9,9,9) in block (9,9,9)",
      "=========         Host Frame: AnySize_Reals_Test::TestBody() [0x1] in lab7",
      "[ RUN      ] AnySize.Reals",
      "[ RUN      ] Not.A.Check",
      "no newline at the end of this printf",
  };
  const auto lines_of = [](const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < text.size();) {
      const auto end = text.find('\n', start);
      lines.push_back(text.substr(start, end - start));
      start = end == std::string::npos ? text.size() : end + 1;
    }
    return lines;
  };
  std::mt19937 random(7);
  for (const std::string& real : {kLoadPastTheEnd, kMissingSync}) {
    const int real_reports = total_reports(parse_sanitizer_output("", real, kLab7Checks));
    ASSERT_EQ(real_reports, 2);
    const auto lines = lines_of(real);
    for (int round = 0; round < 300; ++round) {
      std::string output;
      for (const auto& line : lines) {
        if (random() % 4 == 0) output += fakes[random() % fakes.size()] + "\n";
        output += line + "\n";
      }
      if (total_reports(parse_sanitizer_output("", output, kLab7Checks)) < real_reports) {
        ADD_FAILURE() << "a real report lost in:\n" << output;
        break;
      }
    }
  }
  // A printf without a newline glued to the sanitizer's line.
  std::string glued = kStorePastTheEnd;
  glued.insert(glued.find("========= Invalid"), "partial printf ");
  const auto findings = parse_sanitizer_output("memcheck", glued, kLab7Checks);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].line, 26);
}

// A kernel can print without end: reading stays linear (a quadratic reader would not finish).
TEST(SanitizerReport, AFloodOfPrintedLinesIsReadInLinearTime) {
  std::string output =
      "========= Error: Race reported between Write access at K() in kernel.cu:1\n";
  constexpr int kLines = 50000;
  for (int line = 2; line < kLines + 2; ++line) {
    output += "=========     and Read access at K() in kernel.cu:" + std::to_string(line) +
              " [1 hazards]\n";
  }
  for (int line = 0; line < kLines; ++line) {
    output +=
        "========= Invalid __global__ read of size 4 bytes\n=========     at K() in kernel.cu:" +
        std::to_string(line) + "\n";
  }
  const auto findings = parse_sanitizer_output("", output, {});
  EXPECT_EQ(findings.size(), 2u * kLines);
}

// ---- The sentences ----

// Where the lab program saw nlb7's buffers: B is the 1x1 matrix the reads overrun.
const Buffers kLab7Buffers{
    {"A", 0x7f4f52a00000, 4}, {"B", 0x7f4f52a00200, 4}, {"C", 0x7f4f52a00400, 4}};

SanitizerFinding load_past_the_end() {
  return parse_sanitizer_output("memcheck", kLoadPastTheEnd, kLab7Checks).at(0);
}

TEST(SanitizerReportWords, PastTheEndOfABuffer) {
  auto finding = load_past_the_end();
  EXPECT_EQ(describe_finding(finding, kLab7Buffers, {"no_load_bounds_check.cu"}),
            "compute-sanitizer memcheck: no_load_bounds_check.cu:21 (MatMulAnyKernel), thread "
            "(1,0,0) of block (0,0,0): invalid read of 4 bytes at B + 4 bytes (B[1]), just past "
            "the end of B (B holds 1 float, 4 bytes) and 1 more like it");
  finding.address = 0x7f4f52a00208;
  finding.like_it = 0;
  EXPECT_EQ(describe_finding(finding, kLab7Buffers, {"kernel.cu", "no_load_bounds_check.cu"}),
            "compute-sanitizer memcheck: no_load_bounds_check.cu:21 (MatMulAnyKernel), thread "
            "(1,0,0) of block (0,0,0): invalid read of 4 bytes at B + 8 bytes (B[2]), 4 bytes "
            "past the end of B (B holds 1 float, 4 bytes)");
}

TEST(SanitizerReportWords, BeforeTheStartOfABuffer) {
  SanitizerFinding finding;
  finding.tool = "memcheck";
  finding.what = "Invalid __global__ write of size 4 bytes";
  finding.kernel = "MatMulAnyKernel";
  finding.file = "kernel.cu";
  finding.line = 26;
  finding.thread = "(0,3,0)";
  finding.block = "(1,0,0)";
  finding.address = 0x7f0000000ff8;
  finding.nearest_base = 0x7f0000001000;
  finding.nearest_bytes = 64;
  const Buffers buffers{{"A", 0x7f0000001000, 64}, {"C", 0x7f0000000000, 1024}};
  EXPECT_EQ(describe_finding(finding, buffers, {"kernel.cu"}),
            "compute-sanitizer memcheck: kernel.cu:26 (MatMulAnyKernel), thread (0,3,0) of block "
            "(1,0,0): invalid write of 4 bytes at A - 8 bytes (A[-2]), 8 bytes before the start "
            "of A (A holds 16 floats, 64 bytes)");
  // An index array counts in its own elements.
  const Buffers ints{{"col_index", 0x7f0000001000, 36, "int"}, {"C", 0x7f0000000000, 1024}};
  EXPECT_EQ(describe_finding(finding, ints, {"kernel.cu"}),
            "compute-sanitizer memcheck: kernel.cu:26 (MatMulAnyKernel), thread (0,3,0) of block "
            "(1,0,0): invalid write of 4 bytes at col_index - 8 bytes (col_index[-2]), 8 bytes "
            "before the start of col_index (col_index holds 9 ints, 36 bytes)");
}

TEST(SanitizerReportWords, NoBufferKnownGivesTheSanitizersFacts) {
  auto finding = load_past_the_end();
  finding.like_it = 0;
  EXPECT_EQ(describe_finding(finding, {}, {"no_load_bounds_check.cu"}),
            "compute-sanitizer memcheck: no_load_bounds_check.cu:21 (MatMulAnyKernel), thread "
            "(1,0,0) of block (0,0,0): invalid read of 4 bytes at 0x7f4f52a00204, just past the "
            "end of the nearest allocation (4 bytes at 0x7f4f52a00200)");
  // The sanitizer's allocation is closer than any of the lab's buffers: not one of them.
  const Buffers far{{"A", 0x7f4f60000000, 4096}};
  EXPECT_NE(describe_finding(finding, far, {}).find("just past the end of the nearest allocation"),
            std::string::npos);
  finding.nearest_bytes = 64;  // an allocation that holds the address but is no lab buffer
  EXPECT_EQ(describe_finding(finding, far, {}),
            "compute-sanitizer memcheck: in MatMulAnyKernel, thread (1,0,0) of block (0,0,0): "
            "invalid read of 4 bytes at 0x7f4f52a00204, inside an allocation of 64 bytes at "
            "0x7f4f52a00200 that is none of the lab's buffers");
  finding.nearest_base.reset();
  finding.nearest_bytes.reset();
  EXPECT_EQ(describe_finding(finding, {}, {}),
            "compute-sanitizer memcheck: in MatMulAnyKernel, thread (1,0,0) of block (0,0,0): "
            "invalid read of 4 bytes at 0x7f4f52a00204, out of bounds");
}

TEST(SanitizerReportWords, MisalignedInsideABufferAndNullPointers) {
  SanitizerFinding finding;
  finding.tool = "memcheck";
  finding.what = "Invalid __global__ read of size 4 bytes, misaligned";
  finding.kernel = "CopyKernel";
  finding.file = "kernel.cu";
  finding.line = 9;
  finding.address = 0x7f0000000106;
  const Buffers buffers{{"in", 0x7f0000000100, 16}};
  EXPECT_EQ(describe_finding(finding, buffers, {"kernel.cu"}),
            "compute-sanitizer memcheck: kernel.cu:9 (CopyKernel): invalid read of 4 bytes at in "
            "+ 6 bytes, inside in but misaligned: a read of 4 bytes must start at a multiple of 4 "
            "bytes (in holds 4 floats, 16 bytes)");
  finding.what = "Invalid __global__ read of size 4 bytes";
  finding.address = 0x10;
  EXPECT_EQ(describe_finding(finding, buffers, {"kernel.cu"}),
            "compute-sanitizer memcheck: kernel.cu:9 (CopyKernel): invalid read of 4 bytes at "
            "address 0x10, next to address 0 (a null pointer?)");
}

TEST(SanitizerReportWords, SharedMemoryAndHardwareExceptions) {
  const std::string output =
      memcheck_block("Invalid __shared__ write of size 4 bytes",
                     "TiledKernel(const float *, float *, int)+0x1a0 in kernel.cu:30",
                     "Address 0x400 is out of bounds") +
      memcheck_block("Warp Misaligned Address", "Wide2(const double *)+0x50 in kernel.cu:14",
                     "Saved host backtrace up to driver entry point at kernel launch time");
  const auto findings = parse_sanitizer_output("memcheck", output, {});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(describe_finding(findings[0], kLab7Buffers, {"kernel.cu"}),
            "compute-sanitizer memcheck: kernel.cu:30 (TiledKernel), thread (0,0,0) of block "
            "(0,0,0): invalid write of 4 bytes in shared memory at address 0x400, outside the "
            "block's shared memory (an index past the end of a __shared__ array?)");
  EXPECT_EQ(describe_finding(findings[1], {}, {"kernel.cu"}),
            "compute-sanitizer memcheck: kernel.cu:14 (Wide2), thread (0,0,0) of block (0,0,0): "
            "the GPU reported \"Warp Misaligned Address\"");
}

TEST(SanitizerReportWords, Races) {
  const auto findings = parse_sanitizer_output("racecheck", kMissingSync, {"TiledMatmul.Integers"});
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(describe_finding(findings[0], {}, {"missing_sync_before_compute.cu"}),
            "compute-sanitizer racecheck: missing_sync_before_compute.cu:18 and "
            "missing_sync_before_compute.cu:19 (MatrixMulKernel): a write and a read of the same "
            "shared memory without a __syncthreads() between them (2,944 hazards)");
  auto same_line = findings[1];
  same_line.what = "Race between a write (line 17) and a write (line 17) of shared memory";
  same_line.other_line = 17;
  same_line.hazards = 1;
  same_line.like_it = 2;
  EXPECT_EQ(describe_finding(same_line, {}, {"missing_sync_before_compute.cu"}),
            "compute-sanitizer racecheck: missing_sync_before_compute.cu:17 (MatrixMulKernel): two "
            "writes of the same shared memory without a __syncthreads() between them (1 hazard) "
            "and 2 more like it");
}

TEST(SanitizerReportWords, OutsideTheStudentsFilesOnlyTheKernelAndNeverADirectory) {
  const std::string output =
      "[ RUN      ] AnySize.Integers\n" +
      memcheck_block("Invalid __global__ read of size 4 bytes",
                     "fill_random_kernel(float *, unsigned long, unsigned long)+0x90 in "
                     "/work/main/harness/src/device_buffer.cu:40",
                     "Access to 0x7f4f52a00204 is out of bounds") +
      memcheck_block("Invalid __global__ read of size 4 bytes",
                     "K(float *)+0x10 in /tmp/sandbox-91/work/kernel.cu:7",
                     "Access to 0x7f4f52a00208 is out of bounds");
  const auto findings = parse_sanitizer_output("memcheck", output, kLab7Checks);
  ASSERT_EQ(findings.size(), 2u);
  const auto in_lab = describe_finding(findings[0], kLab7Buffers, {"kernel.cu"});
  EXPECT_EQ(in_lab.find("compute-sanitizer memcheck: in fill_random_kernel, thread"), 0u) << in_lab;
  EXPECT_EQ(in_lab.find("device_buffer.cu"), std::string::npos) << in_lab;
  const auto in_kernel = describe_finding(findings[1], kLab7Buffers, {"kernel.cu"});
  EXPECT_EQ(in_kernel.find("compute-sanitizer memcheck: kernel.cu:7 (K), thread"), 0u) << in_kernel;
  for (const auto& text : {in_lab, in_kernel}) {
    EXPECT_EQ(text.find('/'), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace batch
