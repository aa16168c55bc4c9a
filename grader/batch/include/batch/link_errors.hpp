// What a failed link of a student's launcher means, in the student's words: the undefined
// symbols the linker names (GNU ld, gold, lld, mold), each with the file that uses it. A call into
// a CUDA library (cuBLAS, cuSPARSE, ...) is named as such: the lab does not allow it, and the
// launcher links no library. The build of a ctest run says the same from cmake/explain_link.sh;
// batch_tests keeps the two in step.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace batch {

struct UndefinedSymbol {
  std::string symbol;  // as the linker prints it: "cublasSgemm_v2", "matmul(float*, int)"
  std::string file;    // the student's source that uses it ("kernel.cu"), "" when not known
};

// Every undefined symbol of the linker's messages, in order (a symbol used from two places
// twice).
std::vector<UndefinedSymbol> undefined_symbols(std::string_view linker_output);

// The CUDA library a function belongs to, by its name: "cuBLAS" for cublasSgemm_v2, "the CUDA
// driver API" for cuLaunchKernel; "" for none (the CUDA runtime's cuda* functions are not a
// library here: the launcher's stand-in runtime has those it allows).
std::string cuda_library_of(std::string_view function);

// One sentence per distinct undefined symbol, e.g. "kernel.cu calls cublasSgemm_v2 (cuBLAS),
// which this lab does not allow: the work must be done by your kernel"; a general one when the
// messages name no symbol.
std::vector<std::string> explain_link_error(std::string_view linker_output);

}  // namespace batch
