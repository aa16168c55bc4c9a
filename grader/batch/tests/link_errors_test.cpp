// The words for a failed link (batch/link_errors.hpp) on the messages of GNU ld, gold and lld,
// and the ctest build's script (cmake/explain_link.sh) saying the same.
#include "batch/link_errors.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace batch {
namespace {

using Sentences = std::vector<std::string>;

const std::string kCublas =
    "kernel.cu calls cublasSgemm_v2 (cuBLAS), which this lab does not allow: the work must be "
    "done by your kernel";

// nvcc's host object, linked by g++ with GNU ld, as the batch build step shows it.
const std::string kGnuLd =
    "/usr/bin/ld: kernel.o: in function `sgemm(float const*, float const*, float*, int, int, "
    "int)':\n"
    "tmpxft_00001a2b_00000000-6_kernel.cudafe1.cpp:(.text+0x5d): undefined reference to "
    "`cublasCreate_v2'\n"
    "/usr/bin/ld: tmpxft_00001a2b_00000000-6_kernel.cudafe1.cpp:(.text+0xb1): undefined "
    "reference to `cublasSgemm_v2'\n"
    "/usr/bin/ld: tmpxft_00001a2b_00000000-6_kernel.cudafe1.cpp:(.text+0xc0): undefined "
    "reference to `cublasSgemm_v2'\n"
    "collect2: error: ld returned 1 exit status\n";

const std::string kGold =
    "kernel.o:k.cpp:function sgemm(float const*, int): error: undefined reference to "
    "'cublasSgemm_v2'\n"
    "kernel.o:k.cpp:function sgemm(float const*, int): error: undefined reference to "
    "'cusparseCreate(void**)'\n"
    "collect2: error: ld returned 1 exit status\n";

const std::string kLld =
    "ld.lld: error: undefined symbol: cublasSgemm_v2\n"
    ">>> referenced by k.cpp\n"
    ">>>               CMakeFiles/lab8_calls_cublas.dir/emulated/calls_cublas.cu.cpp.o:(sgemm("
    "float const*, int))\n"
    "\n"
    "ld.lld: error: undefined symbol: curandCreateGenerator\n"
    ">>> referenced by bonus.o:(fill(float*))\n"
    "collect2: error: ld returned 1 exit status\n";

// A contract function missing: the reference is from the lab's entries table, not kernel.cu.
const std::string kMissingContract =
    "/usr/bin/ld: liblab2_launcher_main.a(lab2_entries.cpp.o):(.data.rel.ro+0x8): undefined "
    "reference to `matmul_naive(float const*, float const*, float*, int)'\n"
    "/usr/bin/ld: bonus.o: in function `go()':\n"
    "bonus.cpp:(.text+0x9): undefined reference to `cudaGraphLaunch'\n"
    "/usr/bin/ld: kernel.o: in function `go()':\n"
    "k.cpp:(.text+0x9): undefined reference to \xE2\x80\x98"
    "cuLaunchKernel\xE2\x80\x99\n";

TEST(LinkErrors, ACublasCallIsNamedWithItsLibrary) {
  EXPECT_EQ(explain_link_error(kGnuLd),
            (Sentences{"kernel.cu calls cublasCreate_v2 (cuBLAS), which this lab does not "
                       "allow: the work must be done by your kernel",
                       kCublas}));
}

TEST(LinkErrors, GoldsMessagesNameTheObjectFirst) {
  EXPECT_EQ(explain_link_error(kGold),
            (Sentences{kCublas,
                       "kernel.cu calls cusparseCreate (cuSPARSE), which this lab does not "
                       "allow: the work must be done by your kernel"}));
}

TEST(LinkErrors, LldsMessagesNameTheObjectAfterTheSymbol) {
  const auto symbols = undefined_symbols(kLld);
  ASSERT_EQ(symbols.size(), 2u);
  EXPECT_EQ(symbols[0].symbol, "cublasSgemm_v2");
  EXPECT_EQ(symbols[0].file, "calls_cublas.cu");
  EXPECT_EQ(symbols[1].file, "bonus.cu");
  EXPECT_EQ(explain_link_error(kLld),
            (Sentences{"calls_cublas.cu calls cublasSgemm_v2 (cuBLAS), which this lab does not "
                       "allow: the work must be done by your kernel",
                       "bonus.cu calls curandCreateGenerator (cuRAND), which this lab does not "
                       "allow: the work must be done by your kernel"}));
}

TEST(LinkErrors, AMissingFunctionARuntimeCallAndTheDriverApi) {
  EXPECT_EQ(explain_link_error(kMissingContract),
            (Sentences{"kernel.cu does not define matmul_naive(float const*, float const*, "
                       "float*, int) (a function of the lab's header, with exactly that "
                       "signature?)",
                       "bonus.cu calls cudaGraphLaunch, which a launcher cannot use here (the "
                       "grader replays your launches; see the handout)",
                       "kernel.cu calls cuLaunchKernel (the CUDA driver API), which this lab "
                       "does not allow: the work must be done by your kernel"}));
}

TEST(LinkErrors, NoSymbolGivesTheGeneralQuestion) {
  EXPECT_EQ(explain_link_error("collect2: error: ld returned 1 exit status\n"),
            (Sentences{"The kernel compiled but did not link: does kernel.cu define the "
                       "functions of the lab's header with exactly those signatures?"}));
}

// The linker killed by a limit of the grader's own (RLIMIT_FSIZE of the build sandbox).
const std::string kLinkerKilled =
    "collect2: fatal error: ld terminated with signal 25 [File size limit exceeded]\n"
    "compilation terminated.\n";

TEST(LinkErrors, ALinkerKilledByALimitIsNotTheStudentsMistake) {
  EXPECT_EQ(explain_link_error(kLinkerKilled),
            (Sentences{"The linker was stopped (ld terminated with signal 25 [File size limit "
                       "exceeded]): a limit of the grader's build, not a mistake in your files"}));
}

TEST(LinkErrors, LibrariesByName) {
  EXPECT_EQ(cuda_library_of("cublasLtMatmul"), "cuBLASLt");
  EXPECT_EQ(cuda_library_of("cufftExecC2C"), "cuFFT");
  EXPECT_EQ(cuda_library_of("cusolverDnSgetrf"), "cuSOLVER");
  EXPECT_EQ(cuda_library_of("cuMemAlloc_v2"), "the CUDA driver API");
  EXPECT_EQ(cuda_library_of("cudaMalloc"), "");
  EXPECT_EQ(cuda_library_of("custom_helper"), "");
  EXPECT_EQ(cuda_library_of("matmul"), "");
}

// The ctest build's words (cmake/explain_link.sh --explain) on the same messages.
Sentences script_sentences(const std::string& messages) {
  const auto file = std::filesystem::temp_directory_path() / "labs-link-errors-test.txt";
  std::ofstream(file, std::ios::binary) << messages;
  const std::string command =
      "sh '" LABS_SOURCE_DIR "/cmake/explain_link.sh' --explain '" + file.string() + "'";
  Sentences lines;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    std::string line;
    for (int c = std::fgetc(pipe); c != EOF; c = std::fgetc(pipe)) {
      if (c == '\n') {
        lines.push_back(line);
        line.clear();
      } else {
        line += static_cast<char>(c);
      }
    }
    ::pclose(pipe);
  }
  std::filesystem::remove(file);
  return lines;
}

TEST(LinkErrors, TheCtestBuildSaysTheSame) {
  for (const auto& messages :
       {kGnuLd, kGold, kLld, kMissingContract, kLinkerKilled, std::string("ld: x\n")}) {
    EXPECT_EQ(script_sentences(messages), explain_link_error(messages)) << messages;
  }
}

}  // namespace
}  // namespace batch
