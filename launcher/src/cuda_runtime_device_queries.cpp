// The stand-in CUDA runtime's answers about the device (its attributes and properties, as the lab
// program's hello gave them), a kernel's attributes and occupancy, and the calls that have nothing
// to do in a process without a GPU (synchronisation, streams, events) or only words to give
// (errors). The calls that are recorded for the lab program are cuda_runtime_standin.cpp's.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

#include "recording.hpp"

namespace {

using launcher::recording;

int device_attribute(int attribute) {
  const auto& values = recording().device["attributes"];
  if (!values.is_array() || attribute < 0 || attribute >= static_cast<int>(values.size())) return 0;
  return values[attribute].get<int>();
}

}  // namespace

extern "C" {

cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaFuncSetSharedMemConfig(const void*, cudaSharedMemConfig) { return cudaSuccess; }

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, const void* function) {
  const auto kernel = recording().kernels.find(function);
  if (kernel == recording().kernels.end()) return cudaErrorInvalidDeviceFunction;
  const auto layout = recording().layouts.find(kernel->second.key());
  if (layout == recording().layouts.end()) return cudaErrorNotReady;
  const auto& a = (*layout)["attributes"];
  *attributes = {};
  attributes->sharedSizeBytes = a.value("shared", 0);
  attributes->constSizeBytes = a.value("const", 0);
  attributes->localSizeBytes = a.value("local", 0);
  attributes->maxThreadsPerBlock = a.value("max_threads", 1024);
  attributes->numRegs = a.value("registers", 0);
  attributes->ptxVersion = a.value("ptx_version", 0);
  attributes->binaryVersion = a.value("binary_version", 0);
  attributes->maxDynamicSharedSizeBytes = a.value("max_dynamic_shared", 0);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks,
                                                                   const void* function,
                                                                   int block_size,
                                                                   std::size_t shared, unsigned) {
  cudaFuncAttributes a{};
  if (const auto error = cudaFuncGetAttributes(&a, function); error != cudaSuccess) return error;
  if (block_size <= 0) return cudaErrorInvalidValue;
  const int warps = (block_size + 31) / 32;
  int fit = device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor) / (warps * 32);
  fit = std::min(fit, device_attribute(cudaDevAttrMaxBlocksPerMultiprocessor));
  if (a.numRegs > 0) {
    fit = std::min(
        fit, device_attribute(cudaDevAttrMaxRegistersPerMultiprocessor) / (a.numRegs * warps * 32));
  }
  const std::size_t block_shared = a.sharedSizeBytes + shared;
  if (block_shared > 0) {
    fit = std::min<int>(fit, device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor) /
                                 static_cast<int>(block_shared));
  }
  *blocks = std::max(fit, 0);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* function,
                                                          int block_size, std::size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, function, block_size,
                                                                shared, 0);
}

cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
cudaError_t cudaFree0() { return cudaSuccess; }

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int) {
  if (!recording().connected) return cudaErrorNotReady;
  *value = device_attribute(static_cast<int>(attribute));
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int) {
  const auto& rec = recording();
  if (!rec.connected || !rec.device.contains("properties")) return cudaErrorNotReady;
  const auto& blob = rec.device["properties"].get_binary();
  if (blob.size() != sizeof(cudaDeviceProp)) return cudaErrorUnknown;
  std::memcpy(properties, blob.data(), sizeof(cudaDeviceProp));
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = recording().device.value("driver_version", CUDART_VERSION);
  return cudaSuccess;
}

// Synchronisation and streams: the lab program replays everything in order on one stream.
cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaDeviceReset() { return cudaSuccess; }
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) {
  *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

// Events: a launcher that times itself reads 0 ms (the lab program does the timing).
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  *event = reinterpret_cast<cudaEvent_t>(new int(0));
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned) {
  return cudaEventCreate(event);
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete reinterpret_cast<int*>(event);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = 0;
  return cudaSuccess;
}

cudaError_t cudaGetLastError() {
  const auto error = static_cast<cudaError_t>(recording().last_error);
  recording().last_error = 0;
  return error;
}
cudaError_t cudaPeekAtLastError() { return static_cast<cudaError_t>(recording().last_error); }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDeviceFunction:
      return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidSymbol:
      return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidDevice:
      return "cudaErrorInvalidDevice";
    case cudaErrorNotSupported:
      return "cudaErrorNotSupported";
    case cudaErrorNotReady:
      return "cudaErrorNotReady";
    default:
      return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "no error";
    case cudaErrorNotSupported:
      return "operation not supported in a launcher (the grader replays your launches)";
    case cudaErrorNotReady:
      return "not available outside the contract functions";
    default:
      return cudaGetErrorName(error);
  }
}

}  // extern "C"
