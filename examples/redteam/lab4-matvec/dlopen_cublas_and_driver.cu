// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// redteam: let a library do the work: cuBLAS and the driver dlopen()ed by the launcher itself
//
// The launcher is an ordinary process on a machine with a GPU. It loads cuBLAS with dlopen
// (libcublas.so.13, .12, .so, as lab 8's known-wrong cublas_via_dlopen.cu does in the lab
// program), creates a handle and calls cublasSgemv_v2 on the pointers it was given (B row-major
// is B^T column-major, so CUBLAS_OP_T); it also opens the driver (libcuda.so.1), makes its own
// context current and tries cuMemsetD32_v2 on A. No kernel of its own is launched.
// Why it must fail: the pointers are fake addresses of the launcher's address space, so cuBLAS
// and the driver fault or refuse in the launcher's own context, which holds none of the lab
// program's memory; nothing reaches the lab program's buffers, where A keeps its NaN poison.
// (cuBLAS refused by the stand-in runtime would not be enough: the launcher can load it itself.)
#include <dlfcn.h>

#include <cstdio>

#include "lab4.h"

namespace {

using Create = int (*)(void**);
using Sgemv = int (*)(void*, int, int, int, const float*, const float*, int, const float*, int,
                      const float*, float*, int);
using Sync = int (*)();

void* open_first(const char* const* names) {
  for (const char* const* name = names; *name; ++name) {
    if (void* library = dlopen(*name, RTLD_NOW | RTLD_GLOBAL)) return library;
  }
  std::fprintf(stderr, "dlopen %s: %s\n", names[0], dlerror());
  return nullptr;
}

void with_cublas(float* A, const float* B, const float* C, int n) {
  const char* const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so", nullptr};
  void* cublas = open_first(names);
  if (!cublas) return;
  const auto create = reinterpret_cast<Create>(dlsym(cublas, "cublasCreate_v2"));
  const auto sgemv = reinterpret_cast<Sgemv>(dlsym(cublas, "cublasSgemv_v2"));
  void* handle = nullptr;
  const int created = create ? create(&handle) : -1;
  std::fprintf(stderr, "cublasCreate_v2: %d\n", created);
  if (created != 0 || !sgemv) return;
  const float one = 1.0f, zero = 0.0f;
  // A = B * C with B row-major n x n: column-major B^T, so op T. 1 = CUBLAS_OP_T.
  const int result = sgemv(handle, 1, n, n, &one, B, n, C, 1, &zero, A, 1);
  std::fprintf(stderr, "cublasSgemv_v2: %d\n", result);
  const char* const runtime[] = {"libcudart.so.13", "libcudart.so.12", "libcudart.so", nullptr};
  if (void* cudart = open_first(runtime)) {
    if (const auto sync = reinterpret_cast<Sync>(dlsym(cudart, "cudaDeviceSynchronize"))) {
      std::fprintf(stderr, "cudaDeviceSynchronize (the real one): %d\n", sync());
    }
  }
}

void with_the_driver(float* A, int n) {
  const char* const names[] = {"libcuda.so.1", "libcuda.so", nullptr};
  void* cuda = open_first(names);
  if (!cuda) return;
  using Retain = int (*)(void**, int);
  using Memset32 = int (*)(unsigned long long, unsigned, std::size_t);
  const auto init = reinterpret_cast<int (*)(unsigned)>(dlsym(cuda, "cuInit"));
  const auto retain = reinterpret_cast<Retain>(dlsym(cuda, "cuDevicePrimaryCtxRetain"));
  const auto set_current = reinterpret_cast<int (*)(void*)>(dlsym(cuda, "cuCtxSetCurrent"));
  const auto memset32 = reinterpret_cast<Memset32>(dlsym(cuda, "cuMemsetD32_v2"));
  void* context = nullptr;
  if (!init || !retain || !set_current || !memset32 || init(0) != 0 ||
      retain(&context, 0) != 0 || set_current(context) != 0) {
    return;
  }
  std::fprintf(stderr, "cuMemsetD32_v2 on A: %d\n",
               memset32(reinterpret_cast<unsigned long long>(A), 0x3F800000u, n));
}

}  // namespace

void matvec(float* A, const float* B, const float* C, int n) {
  with_the_driver(A, n);
  with_cublas(A, B, C, n);
}
