// The CUDA driver as the GPU runtime calls it (student_runtime.cpp and its parts): looked up at run
// time, its errors in words, and a context pushed for one block.
#pragma once

#include <dlfcn.h>

#include <array>
#include <stdexcept>
#include <string>

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

// The driver's functions are looked up at run time in libcuda.so.1, under the versioned names
// cuda.h maps each call to (cuCtxCreate -> cuCtxCreate_v4), which are the symbols a link would
// bind: the lab program must start on a machine without a GPU driver, where checks are skipped.
#define LABS_DRIVER_SYMBOL_(name) #name
#define LABS_DRIVER_SYMBOL(name) LABS_DRIVER_SYMBOL_(name)
template <class Function>
Function driver_function(const char* symbol) {
  static void* const library = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  void* function = library ? ::dlsym(library, symbol) : nullptr;
  if (function == nullptr) {
    throw std::runtime_error(fmt::format("the CUDA driver has no {}", symbol));
  }
  return reinterpret_cast<Function>(function);
}
#define DRIVER(name)                                                                           \
  ([] {                                                                                        \
    static const auto function = driver_function<decltype(&::name)>(LABS_DRIVER_SYMBOL(name)); \
    return function;                                                                           \
  }())

namespace harness::student {

inline std::string driver_error(CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  DRIVER(cuGetErrorName)(result, &name);
  DRIVER(cuGetErrorString)(result, &text);
  return fmt::format("{} ({})", name ? name : "CUDA_ERROR", text ? text : "unknown");
}

inline void check_driver(CUresult result, const char* what) {
  if (result != CUDA_SUCCESS) {
    throw std::runtime_error(fmt::format("{} failed: {}", what, driver_error(result)));
  }
}

// The runtime error that matches a driver error, for the diagnosis rules that read names.
inline cudaError_t runtime_code(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
      return cudaErrorIllegalAddress;
    case CUDA_ERROR_MISALIGNED_ADDRESS:
      return cudaErrorMisalignedAddress;
    case CUDA_ERROR_LAUNCH_FAILED:
      return cudaErrorLaunchFailure;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
      return cudaErrorLaunchOutOfResources;
    case CUDA_ERROR_INVALID_VALUE:
      return cudaErrorInvalidConfiguration;
    case CUDA_ERROR_ASSERT:
      return cudaErrorAssert;
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
      return cudaErrorIllegalInstruction;
    default:
      return cudaErrorLaunchFailure;
  }
}

inline bool context_is_lost(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_UNKNOWN:
      return true;
    default:
      return false;
  }
}

inline std::string dims_text(const std::array<unsigned, 3>& d) {
  return fmt::format("({}, {}, {})", d[0], d[1], d[2]);
}

inline std::array<unsigned, 3> dims_of(const nlohmann::json& value) {
  std::array<unsigned, 3> d{1, 1, 1};
  if (!value.is_array() || value.size() != 3) throw std::runtime_error("bad dimensions");
  for (int i = 0; i < 3; ++i) d[i] = value[i].get<unsigned>();
  return d;
}

// Pushes a context for the scope of one block.
class ContextScope {
 public:
  explicit ContextScope(CUcontext context) {
    check_driver(DRIVER(cuCtxPushCurrent)(context), "cuCtxPushCurrent");
  }
  ~ContextScope() { DRIVER(cuCtxPopCurrent)(nullptr); }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
};

}  // namespace harness::student
