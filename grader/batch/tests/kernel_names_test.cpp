// The kernels of a submission's launcher, from cuobjdump -symbols (as CUDA 13.0 printed it on the
// H100 for lab 6's solution), for the hosted memcheck run's kernel filter.
#include <gtest/gtest.h>

#include "batch/build_step.hpp"

namespace batch {
namespace {

const char* const kListing = R"(
Fatbin elf code:
================
arch = sm_90
code version = [1,8]
host = linux
compile_size = 64bit
identifier = /submission/kernel.cu

symbols:
STT_OBJECT       STB_WEAK   STV_DEFAULT  U .nv.reservedSmem.offset0
STT_?            STB_WEAK   STO_RESERVED_SHARED   __nv_reservedSMEM_offset_0_alias
STT_?            STB_LOCAL  STV_DEFAULT  U 
STT_FUNC         STB_GLOBAL STO_ENTRY      _Z15MatrixMulKernelPKfS0_Pfi
STT_FUNC         STB_GLOBAL STO_ENTRY      _Z9zero_fillPfi
STT_FUNC         STB_GLOBAL STO_ENTRY      _Z15MatrixMulKernelPKfS0_Pfi
)";

TEST(KernelNames, EveryEntryOnceInTheOrderListed) {
  EXPECT_EQ(kernel_names_in_symbols(kListing),
            (std::vector<std::string>{"_Z15MatrixMulKernelPKfS0_Pfi", "_Z9zero_fillPfi"}));
}

TEST(KernelNames, NoEntryNoNames) {
  EXPECT_TRUE(kernel_names_in_symbols("symbols:\nSTT_OBJECT STB_WEAK STV_DEFAULT U x\n").empty());
  EXPECT_TRUE(kernel_names_in_symbols("").empty());
}

// A name that would break compute-sanitizer's "key=value,key=value" filter gives no list at all:
// every kernel is then instrumented, which is slower but misses nothing.
TEST(KernelNames, ANameTheFilterCannotSpellGivesNoList) {
  EXPECT_TRUE(kernel_names_in_symbols("STT_FUNC STB_GLOBAL STO_ENTRY _Z1a\n"
                                      "STT_FUNC STB_GLOBAL STO_ENTRY kne=x,kns=y\n")
                  .empty());
}

}  // namespace
}  // namespace batch
