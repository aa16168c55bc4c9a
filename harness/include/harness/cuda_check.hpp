// CUDA error checks that say file, line and the call that failed.
#pragma once

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

namespace harness {

struct CudaError : std::runtime_error {
  CudaError(cudaError_t code, const std::string& message);
  cudaError_t code;
  // The lab program's own CUDA context is unusable after this error (a fault in its context).
  bool sticky = false;
};

// Throws CudaError "file:line: call: cudaErrorX (description)" when `result` is not success.
void check_cuda(cudaError_t result, const char* call, const char* file, int line);

// True for errors after which the CUDA context is unusable (a kernel fault): every later call in
// the process fails, so the remaining cases cannot run.
bool is_sticky(cudaError_t code);

// Checks a student launcher: launch errors (bad grid or block) and faults while the kernel ran.
// `what` names the launcher in the message, e.g. "copy_matrix(in, out, 256, 256)".
void synchronize_after(const std::string& what);

}  // namespace harness

#define CUDA_CHECK(call) ::harness::check_cuda((call), #call, __FILE__, __LINE__)
