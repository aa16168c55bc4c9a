// CUDA error checks that say the call that failed.
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

// Throws CudaError "the lab program's cudaMalloc failed: cudaErrorX (description)" when `result`
// is not success (file and line go to the trace only: students never see the kit's paths).
void check_cuda(cudaError_t result, const char* call, const char* file, int line);

// True for errors after which the CUDA context is unusable (a kernel fault): every later call in
// the process fails, so the remaining cases cannot run.
bool is_sticky(cudaError_t code);

// Checks a student launcher: launch errors (bad grid or block) and faults while the kernel ran.
// `what` names the launcher in the message, e.g. "copy_matrix(in, out, 256, 256)".
void synchronize_after(const std::string& what);

}  // namespace harness

#define CUDA_CHECK(call) ::harness::check_cuda((call), #call, __FILE__, __LINE__)
