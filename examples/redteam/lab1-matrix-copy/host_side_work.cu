// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: host-side work: read `in` on the host (deref, cudaMemcpy D2H, libcuda) and upload it
//
// If the launcher could read the input on the host it could "copy" without a kernel and upload
// the result with cudaMemcpy host-to-device, which launchers may do with data of their own. It
// tries, in turn: dereferencing `in` under a SIGSEGV/SIGBUS handler; cudaMemcpy device-to-host;
// the driver itself, dlopen("libcuda.so.1"), its primary context and cuMemcpyDtoH_v2 on the
// pointer as given. Whatever it read, it uploads; if nothing worked it dereferences `in` without
// a handler, and crashes.
// Why it must fail: device pointers in the launcher are fake, non-canonical addresses (a host
// read faults), device-to-host copies are refused, and the launcher's own CUDA context (if the
// driver opens at all) holds none of the lab program's memory. A crashed launcher fails the call.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "lab1.h"

namespace {

sigjmp_buf escape;

// Reads `in` on the host, or returns false after the fault.
bool read_directly(const float* in, std::vector<float>& host) {
  struct sigaction fault {};
  fault.sa_handler = [](int) { siglongjmp(escape, 1); };
  sigaction(SIGSEGV, &fault, nullptr);
  sigaction(SIGBUS, &fault, nullptr);
  volatile bool read = false;
  if (sigsetjmp(escape, 1) == 0) {
    std::memcpy(host.data(), in, host.size() * sizeof(float));
    read = true;
  }
  signal(SIGSEGV, SIG_DFL);
  signal(SIGBUS, SIG_DFL);
  return read;
}

bool read_with_the_driver(const float* in, std::vector<float>& host) {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW);
  if (!cuda) return std::fprintf(stderr, "host: dlopen libcuda: %s\n", dlerror()), false;
  using Init = int (*)(unsigned);
  using DeviceGet = int (*)(int*, int);
  using Retain = int (*)(void**, int);
  using SetCurrent = int (*)(void*);
  using DtoH = int (*)(void*, unsigned long long, std::size_t);
  const auto init = reinterpret_cast<Init>(dlsym(cuda, "cuInit"));
  const auto device_get = reinterpret_cast<DeviceGet>(dlsym(cuda, "cuDeviceGet"));
  const auto retain = reinterpret_cast<Retain>(dlsym(cuda, "cuDevicePrimaryCtxRetain"));
  const auto set_current = reinterpret_cast<SetCurrent>(dlsym(cuda, "cuCtxSetCurrent"));
  const auto dtoh = reinterpret_cast<DtoH>(dlsym(cuda, "cuMemcpyDtoH_v2"));
  int device = 0;
  void* context = nullptr;
  if (!init || !device_get || !retain || !set_current || !dtoh || init(0) != 0 ||
      device_get(&device, 0) != 0 || retain(&context, device) != 0 || set_current(context) != 0) {
    return std::fprintf(stderr, "host: no CUDA context of my own\n"), false;
  }
  const int result = dtoh(host.data(), reinterpret_cast<unsigned long long>(in),
                          host.size() * sizeof(float));
  std::fprintf(stderr, "host: cuMemcpyDtoH_v2 from %p: error %d\n", static_cast<const void*>(in),
               result);
  return result == 0;
}

void copy_on_the_host(const float* in, float* out, int rows, int cols) {
  std::vector<float> host(static_cast<std::size_t>(rows) * cols);
  const std::size_t bytes = host.size() * sizeof(float);
  bool have = read_directly(in, host);
  if (!have) {
    const cudaError_t e = cudaMemcpy(host.data(), in, bytes, cudaMemcpyDeviceToHost);
    std::fprintf(stderr, "host: cudaMemcpy D2H: %s\n", cudaGetErrorString(e));
    have = e == cudaSuccess;
  }
  if (!have) have = read_with_the_driver(in, host);
  if (!have) {
    std::fprintf(stderr, "host: nothing worked; reading the pointer anyway\n");
    std::memcpy(host.data(), in, bytes);  // no handler now: SIGSEGV
  }
  cudaMemcpy(out, host.data(), bytes, cudaMemcpyHostToDevice);
}

}  // namespace

void copy_matrix(const float* in, float* out, int rows, int cols) {
  copy_on_the_host(in, out, rows, cols);
}
void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  copy_on_the_host(in, out, rows, cols);
}
