// The CUDA runtime as the student's host code sees it in the launcher process. Nothing here
// touches a GPU: every call is written down (recording.hpp) for the lab program to replay on its
// own buffers, in its own context. Device addresses are fake (protocol.hpp); reading device data
// back to the host is refused, so a launcher cannot compute the answer itself.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "launcher/protocol.hpp"
#include "recording.hpp"

namespace launcher {

Recording& recording() {
  static Recording instance;
  return instance;
}

void record(nlohmann::json op) {
  auto& ops = recording().ops;
  if (ops.size() >= launcher_protocol::kMaxOpsPerCall) return;  // the lab program says "too many"
  ops.push_back(std::move(op));
}

void refuse(const std::string& what, const std::string& why) {
  record({{"k", "refused"}, {"what", what}, {"why", why}});
  recording().last_error = cudaErrorNotSupported;
}

}  // namespace launcher

namespace {

using launcher::record;
using launcher::recording;
using launcher::refuse;
namespace protocol = launcher_protocol;

struct LaunchConfig {
  dim3 grid, block;
  std::size_t shared = 0;
};
std::vector<LaunchConfig>& configs() {
  static std::vector<LaunchConfig> stack;
  return stack;
}

std::uint64_t address(const void* pointer) { return reinterpret_cast<std::uint64_t>(pointer); }

nlohmann::json::binary_t bytes_of(const void* data, std::size_t size) {
  const auto* begin = static_cast<const std::uint8_t*>(data);
  return nlohmann::json::binary_t(std::vector<std::uint8_t>(begin, begin + size));
}

nlohmann::json dims(const dim3& d) { return {d.x, d.y, d.z}; }

cudaError_t launch(const void* host_function, dim3 grid, dim3 block, void** args,
                   std::size_t shared) {
  auto& rec = recording();
  const auto kernel = rec.kernels.find(host_function);
  if (kernel == rec.kernels.end()) {
    refuse("a kernel launch", "the launched function is not a __global__ function of your files");
    return cudaErrorInvalidDeviceFunction;
  }
  const auto layout = rec.layouts.find(kernel->second.key());
  if (!rec.connected || layout == rec.layouts.end()) {
    refuse("launching " + kernel->second.name + " before the lab program called your launcher",
           "kernels can only be launched from the contract functions");
    return cudaErrorNotReady;
  }
  const auto& offsets = (*layout)["offsets"];
  const auto& sizes = (*layout)["sizes"];
  std::size_t total = 0;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    total = std::max(total, offsets[i].get<std::size_t>() + sizes[i].get<std::size_t>());
  }
  std::vector<std::uint8_t> params(total, 0);
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    std::memcpy(params.data() + offsets[i].get<std::size_t>(), args[i],
                sizes[i].get<std::size_t>());
  }
  record({{"k", "launch"},
          {"kernel", kernel->second.key()},
          {"grid", dims(grid)},
          {"block", dims(block)},
          {"shared", shared},
          {"params", nlohmann::json::binary_t(std::move(params))}});
  return cudaSuccess;
}

bool device_pointer(const void* pointer) { return protocol::is_fake(address(pointer)); }

}  // namespace

// ---- registration, called by the code nvcc generates for every .cu file ----
extern "C" {

void** __cudaRegisterFatBinary(void* wrapper) {
  // __fatBinC_Wrapper_t {int magic; int version; const unsigned long long* data; void*}; data
  // points at a fatbin header {u32 magic; u16 version; u16 header size; u64 body size}.
  struct Wrapper {
    int magic;
    int version;
    const unsigned char* data;
    void* unused;
  };
  const auto* w = static_cast<const Wrapper*>(wrapper);
  unsigned short header_size = 0;
  unsigned long long body_size = 0;
  std::memcpy(&header_size, w->data + 6, sizeof header_size);
  std::memcpy(&body_size, w->data + 8, sizeof body_size);
  auto& rec = recording();
  rec.fatbins.emplace_back(reinterpret_cast<const char*>(w->data), header_size + body_size);
  // The handle is the module's index (plus one, so that it is never null).
  return reinterpret_cast<void**>(static_cast<std::uintptr_t>(rec.fatbins.size()));
}

void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
char __cudaInitModule(void**) { return 0; }

void __cudaRegisterFunction(void** handle, const char* host_function, char*,
                            const char* device_name, int, uint3*, uint3*, dim3*, dim3*, int*) {
  const int module = static_cast<int>(reinterpret_cast<std::uintptr_t>(handle)) - 1;
  recording().kernels[host_function] = {module, device_name};
}

void __cudaRegisterVar(void** handle, char* host_variable, char*, const char* device_name, int,
                       std::size_t size, int, int) {
  const int module = static_cast<int>(reinterpret_cast<std::uintptr_t>(handle)) - 1;
  recording().variables[host_variable] = {{module, device_name}, size};
}

void __cudaRegisterManagedVar(void**, void**, char*, const char* device_name, int, std::size_t, int,
                              int) {
  refuse(std::string("__managed__ variable ") + device_name,
         "managed memory is readable on the host: the lab does not allow it");
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, std::size_t shared, void*) {
  configs().push_back({grid, block, shared});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, std::size_t* shared, void* stream) {
  if (configs().empty()) return cudaErrorInvalidConfiguration;
  *grid = configs().back().grid;
  *block = configs().back().block;
  *shared = configs().back().shared;
  if (stream) *static_cast<void**>(stream) = nullptr;
  configs().pop_back();
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_function) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(host_function));
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                               std::size_t shared, cudaStream_t) {
  return launch(kernel, grid, block, args, shared);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                                    std::size_t shared, cudaStream_t) {
  return launch(kernel, grid, block, args, shared);
}

// ---- the runtime API a launcher may use ----

cudaError_t cudaLaunchKernel(const void* function, dim3 grid, dim3 block, void** args,
                             std::size_t shared, cudaStream_t) {
  return launch(function, grid, block, args, shared);
}

cudaError_t cudaMalloc(void** pointer, std::size_t bytes) {
  auto& rec = recording();
  if (rec.next_region == 0) rec.next_region = protocol::kFirstLauncherRegion;
  if (bytes > protocol::kRegionBytes || rec.next_region >= protocol::kRegionCount) {
    *pointer = nullptr;
    return cudaErrorMemoryAllocation;
  }
  const std::uint64_t region = rec.next_region++;
  *pointer = reinterpret_cast<void*>(protocol::fake_address(region, 0));
  record({{"k", "malloc"}, {"region", region}, {"bytes", bytes}});
  return cudaSuccess;
}

cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height) {
  *pitch = (width + 511) / 512 * 512;
  return cudaMalloc(pointer, *pitch * height);
}

cudaError_t cudaFree(void* pointer) {
  if (pointer == nullptr) return cudaSuccess;
  if (!device_pointer(pointer)) return cudaErrorInvalidValue;
  record({{"k", "free"}, {"address", address(pointer)}});
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void** pointer, std::size_t bytes) {
  *pointer = std::malloc(bytes);
  return *pointer ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** pointer, std::size_t bytes, unsigned) {
  return cudaMallocHost(pointer, bytes);
}
cudaError_t cudaFreeHost(void* pointer) {
  std::free(pointer);
  return cudaSuccess;
}

cudaError_t cudaMallocManaged(void** pointer, std::size_t, unsigned) {
  *pointer = nullptr;
  refuse("cudaMallocManaged", "managed memory is readable on the host: the lab does not allow it");
  return cudaErrorNotSupported;
}

cudaError_t cudaMemset(void* pointer, int value, std::size_t bytes) {
  if (!device_pointer(pointer)) return cudaErrorInvalidValue;
  record(
      {{"k", "memset"}, {"address", address(pointer)}, {"value", value & 0xFF}, {"bytes", bytes}});
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t bytes, cudaStream_t) {
  return cudaMemset(pointer, value, bytes);
}

cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t bytes, cudaMemcpyKind) {
  // The direction follows the addresses, whatever `kind` says.
  const bool to_device = device_pointer(destination);
  const bool from_device = device_pointer(source);
  if (to_device && from_device) {
    record(
        {{"k", "copy"}, {"to", address(destination)}, {"from", address(source)}, {"bytes", bytes}});
  } else if (to_device) {
    if (bytes > protocol::kMaxUploadBytes) {
      refuse("cudaMemcpy of " + std::to_string(bytes) + " bytes from the host",
             "a launcher uploads only small data of its own");
      return cudaErrorNotSupported;
    }
    record({{"k", "upload"}, {"to", address(destination)}, {"data", bytes_of(source, bytes)}});
  } else if (from_device) {
    refuse("cudaMemcpy from the device to the host",
           "the launcher reads device data back: the work must be done by your kernel");
    return cudaErrorNotSupported;
  } else {
    std::memmove(destination, source, bytes);
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t bytes,
                            cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(destination, source, bytes, kind);
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* source, std::size_t bytes,
                               std::size_t offset, cudaMemcpyKind) {
  const auto variable = recording().variables.find(symbol);
  if (variable == recording().variables.end() || offset + bytes > variable->second.size) {
    return cudaErrorInvalidSymbol;
  }
  if (device_pointer(source)) {
    refuse("cudaMemcpyToSymbol from device memory", "copy host data of your own into symbols");
    return cudaErrorNotSupported;
  }
  record({{"k", "symbol"},
          {"variable", variable->second.device.key()},
          {"offset", offset},
          {"data", bytes_of(source, bytes)}});
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* source, std::size_t bytes,
                                    std::size_t offset, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpyToSymbol(symbol, source, bytes, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol(void*, const void*, std::size_t, std::size_t, cudaMemcpyKind) {
  refuse("cudaMemcpyFromSymbol",
         "the launcher reads device data back: the work must be done by your kernel");
  return cudaErrorNotSupported;
}

cudaError_t cudaFuncSetAttribute(const void* function, cudaFuncAttribute attribute, int value) {
  const auto kernel = recording().kernels.find(function);
  if (kernel == recording().kernels.end()) return cudaErrorInvalidDeviceFunction;
  if (attribute != cudaFuncAttributeMaxDynamicSharedMemorySize &&
      attribute != cudaFuncAttributePreferredSharedMemoryCarveout) {
    return cudaSuccess;  // other attributes (clusters) are not used by these labs
  }
  record({{"k", "attribute"},
          {"kernel", kernel->second.key()},
          {"attribute", static_cast<int>(attribute)},
          {"value", value}});
  return cudaSuccess;
}

}  // extern "C"
