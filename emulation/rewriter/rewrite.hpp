// Turns a CUDA source file into C++ that the host compiler builds against the emulator:
//   - every launch `kernel<<<grid, block[, shared[, stream]]>>>(args)` becomes
//     `::emu::launch(site, [&](auto&... a) { kernel(a...); }, grid, block[, ...])(args)`: only the
//     prefix changes, so template kernels, multi-line launches and any argument list still work;
//   - `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared memory;
//   - after each static `__shared__` declaration inside a function, a call notes its size, which
//     the launch recorder reports as the kernel's static shared memory;
//   - in __global__ and __device__ functions, each subscript of a pointer parameter, of a pointer
//     the function declares and of a __shared__ array is wrapped in a bounds check
//     (`::emu::at(A[i], __FILE__, line, ::emu::Access::read)`, emu/access.hpp);
//   - quoted includes are made absolute, because the output lives in the build tree;
//   - `#line` directives keep compiler messages on the student's file and lines.
// `__global__`, `__shared__`, `threadIdx`, `__syncthreads()` and the runtime API come from the
// emulator's cuda_runtime.h, which the output includes first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace emu::rewriter {

struct RewriteOptions {
  std::string source_path;       // for #line and for resolving quoted includes
  bool resolve_includes = true;  // make `#include "x.h"` absolute when source_dir/x.h exists
};

struct RewriteResult {
  std::string text;
  std::vector<std::string> errors;  // "file:line: message", as compilers write them
  int launches = 0;
  int shared_declarations = 0;
  int checked_subscripts = 0;  // subscripts wrapped in bounds checks (emu/access.hpp)
};

RewriteResult rewrite(std::string_view source, const RewriteOptions& options);

}  // namespace emu::rewriter
