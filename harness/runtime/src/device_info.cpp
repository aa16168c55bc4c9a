#include "harness/device_info.hpp"

#include <dlfcn.h>

#include <fmt/format.h>

#include "harness/cuda_check.hpp"

namespace harness {
namespace {

std::string version_text(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

// The driver's release ("580.159.04") comes from NVML, loaded at run time so that the labs still
// start (and skip) on machines without the NVIDIA driver.
std::string nvml_driver_version() {
  void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) return {};
  using InitFn = int (*)();
  using VersionFn = int (*)(char*, unsigned);
  auto init = reinterpret_cast<InitFn>(dlsym(library, "nvmlInit_v2"));
  auto version = reinterpret_cast<VersionFn>(dlsym(library, "nvmlSystemGetDriverVersion"));
  auto shutdown = reinterpret_cast<InitFn>(dlsym(library, "nvmlShutdown"));
  std::string text;
  if (init && version && init() == 0) {
    char buffer[96] = {};
    if (version(buffer, sizeof buffer) == 0) text = buffer;
    if (shutdown) shutdown();
  }
  dlclose(library);
  return text;
}

}  // namespace

std::string gpu_unavailable_reason() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    return fmt::format("no usable CUDA device: {} ({})", cudaGetErrorName(status),
                       cudaGetErrorString(status));
  }
  if (count == 0) return "no CUDA device found";
  return {};
}

DeviceInfo query_device() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  int driver = 0;
  int runtime = 0;
  CUDA_CHECK(cudaDriverGetVersion(&driver));
  CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  DeviceInfo info;
  info.name = properties.name;
  info.compute_capability = fmt::format("{}.{}", properties.major, properties.minor);
  const auto release = nvml_driver_version();
  info.driver_version = release.empty()
                            ? fmt::format("CUDA {}", version_text(driver))
                            : fmt::format("{} (CUDA {})", release, version_text(driver));
  info.runtime_version = version_text(runtime);
  info.sm_count = properties.multiProcessorCount;
  info.memory_gib = static_cast<double>(properties.totalGlobalMem) / (1024.0 * 1024.0 * 1024.0);
  return info;
}

}  // namespace harness
