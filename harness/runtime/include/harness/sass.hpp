// Reading a program's machine code (SASS, as `cuobjdump -sass` prints it): which kernels it holds
// and whether a kernel uses tensor cores. Host only, unit-tested without a GPU. Lab 8 uses it to
// check that the race is run on the CUDA cores with the student's own kernels.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace harness {

// A C++ symbol as source reads it ("matmul_kernel(float const*, ...)"); itself if not mangled.
std::string demangle(const std::string& name);

// The text of each "Function : <mangled name>" section, keyed by the demangled name (as the
// launch recorder names kernels). Sections of the same kernel for several architectures are
// concatenated.
std::map<std::string, std::string> split_sass_functions(std::string_view cuobjdump_output);

// True when an instruction's opcode is a tensor-core one: HMMA, IMMA, DMMA, BMMA (mma.sync, wmma),
// HGMMA and friends (wgmma), UTC*MMA (newer GPUs). The opcode is the first word of an instruction
// after an optional predicate; modifiers do not count, so HFMA2.MMA (a plain half-precision FMA
// the compiler uses to move constants) is not a tensor-core instruction.
bool sass_uses_tensor_cores(std::string_view sass);

}  // namespace harness
