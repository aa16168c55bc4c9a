#include "harness/cuda_check.hpp"

#include <fmt/format.h>

#include "harness/trace.hpp"

namespace harness {

CudaError::CudaError(cudaError_t code, const std::string& message)
    : std::runtime_error(message), code(code), sticky(is_sticky(code)) {}

void check_cuda(cudaError_t result, const char* call, const char* file, int line) {
  if (result == cudaSuccess) return;
  // A student reads this: the function, not the harness's file and expression (a file they did
  // not write). `file` and `line` go to the trace (LABS_TRACE=1) for the kit's maintainers.
  const std::string text = call;
  const std::string function = text.substr(0, text.find('('));
  trace(fmt::format("{}:{}: {} failed: {}", file, line, call, cudaGetErrorName(result)));
  throw CudaError(
      result,
      fmt::format("the lab program's {} failed: {} ({}){}", function, cudaGetErrorName(result),
                  cudaGetErrorString(result),
                  is_sticky(result) ? ": an earlier kernel launch faulted and left the GPU "
                                      "unusable for this run (look for the first failing case)"
                                    : ""));
}

bool is_sticky(cudaError_t code) {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

void synchronize_after(const std::string& what) {
  // The launch itself: a grid or block the GPU refuses (e.g. more than 1024 threads a block).
  if (const cudaError_t launch = cudaGetLastError(); launch != cudaSuccess) {
    throw CudaError(launch,
                    fmt::format("{}: the kernel launch failed: {} ({}); check the grid "
                                "and block sizes",
                                what, cudaGetErrorName(launch), cudaGetErrorString(launch)));
  }
  // The kernel's run: faults such as an illegal memory access surface here.
  if (const cudaError_t run = cudaDeviceSynchronize(); run != cudaSuccess) {
    throw CudaError(run, fmt::format("{}: the kernel failed while running: {} ({}){}", what,
                                     cudaGetErrorName(run), cudaGetErrorString(run),
                                     run == cudaErrorIllegalAddress
                                         ? "; an index goes outside a matrix (run the check under "
                                           "compute-sanitizer to see the line)"
                                         : ""));
  }
}

}  // namespace harness
