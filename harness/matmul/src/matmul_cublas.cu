// The references a matmul speed check measures against: cuBLAS (loaded at run time), a naive
// kernel, and the roofs (copy bandwidth and cuBLAS's rate) measured in the same run.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#ifndef LABS_EMULATION
#include <cublas_v2.h>
#endif
#include <fmt/format.h>

#include "harness/cuda_check.hpp"
#include "harness/device_buffer.hpp"
#include "harness/matmul.hpp"

#ifndef LABS_CUDA_LIBRARY_DIR
#define LABS_CUDA_LIBRARY_DIR ""
#endif

namespace harness {
namespace {

#ifndef LABS_EMULATION
// cuBLAS, loaded at run time (see the header for why).
class Cublas {
 public:
  static Cublas& get() {
    static Cublas instance;
    return instance;
  }
  void sgemm_row_major(const float* a, const float* b, float* c, const MatmulShape& s) {
    const float one = 1.0f;
    const float zero = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T: swap the operands, no transposes.
    const cublasStatus_t status = sgemm_(handle_, CUBLAS_OP_N, CUBLAS_OP_N, s.n, s.m, s.k, &one, b,
                                         s.n, a, s.k, &zero, c, s.n);
    if (status != CUBLAS_STATUS_SUCCESS) {
      throw std::runtime_error(
          fmt::format("cublasSgemm failed with status {}", static_cast<int>(status)));
    }
  }

 private:
  using CreateFn = cublasStatus_t (*)(cublasHandle_t*);
  using MathModeFn = cublasStatus_t (*)(cublasHandle_t, cublasMath_t);
  using SgemmFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                     int, const float*, const float*, int, const float*, int,
                                     const float*, float*, int);

  Cublas() {
    // FP32 means FP32: an environment that turns on TF32 would flatter the reference 8x.
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
    const std::string dir = LABS_CUDA_LIBRARY_DIR;
    for (const std::string name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}) {
      if (!dir.empty()) library_ = dlopen((dir + "/" + name).c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library_) library_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (library_) break;
    }
    if (!library_) throw std::runtime_error(fmt::format("cannot load cuBLAS: {}", dlerror()));
    auto create = reinterpret_cast<CreateFn>(dlsym(library_, "cublasCreate_v2"));
    auto math_mode = reinterpret_cast<MathModeFn>(dlsym(library_, "cublasSetMathMode"));
    sgemm_ = reinterpret_cast<SgemmFn>(dlsym(library_, "cublasSgemm_v2"));
    if (!create || !math_mode || !sgemm_) throw std::runtime_error("cuBLAS lacks cublasSgemm_v2");
    if (create(&handle_) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
    // Pedantic: FP32 arithmetic throughout, no reduced-precision shortcuts.
    math_mode(handle_, CUBLAS_PEDANTIC_MATH);
  }
  // The handle lives until the process ends: destroying it at exit races the CUDA runtime's own
  // teardown.
  void* library_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  SgemmFn sgemm_ = nullptr;
};
#else
// The CPU emulation has no cuBLAS: its stand-in is a plain FP32 product on the CPU (device
// memory is host memory there). Only the speed checks call it, and those are not measured.
// Deliberately the GPU class's shape (get() and sgemm_row_major, the same singleton): one class
// per backend, so that the code below does not know which it has.
class Cublas {
 public:
  static Cublas& get() {
    static Cublas instance;
    return instance;
  }
  void sgemm_row_major(const float* a, const float* b, float* c, const MatmulShape& s) {
    for (int i = 0; i < s.m; ++i) {
      float* c_row = c + static_cast<size_t>(i) * s.n;
      std::fill(c_row, c_row + s.n, 0.0f);
      for (int l = 0; l < s.k; ++l) {
        const float a_il = a[static_cast<size_t>(i) * s.k + l];
        const float* b_row = b + static_cast<size_t>(l) * s.n;
        for (int j = 0; j < s.n; ++j) c_row[j] += a_il * b_row[j];
      }
    }
  }
};
#endif

__global__ void naive_matmul_kernel(const float* a, const float* b, float* c, int m, int k, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0;
    for (int i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
    c[row * n + col] = sum;
  }
}

}  // namespace

void cublas_matmul(const float* a, const float* b, float* c, const MatmulShape& shape) {
  Cublas::get().sgemm_row_major(a, b, c, shape);
}

TimedWork cublas_reference(const float* a, const float* b, float* c, const MatmulShape& shape) {
  Cublas::get();  // load before timing starts
  return {"cuBLAS SGEMM (FP32)", [=] { Cublas::get().sgemm_row_major(a, b, c, shape); },
          shape.flops()};
}

Roofs measure_roofs(const float* a, const float* b, float* c, const MatmulShape& shape) {
  Roofs roofs;
  TimingOptions options;
  options.repetitions = 10;
  options.min_repetitions = 5;
  try {
    constexpr std::size_t kBytes = 256u << 20;
    DeviceBuffer from("bandwidth source", kBytes / sizeof(float), 0);
    DeviceBuffer to("bandwidth target", kBytes / sizeof(float), 0);
    const auto copy = memcpy_reference(from.data(), to.data(), kBytes);
    const auto blas = cublas_reference(a, b, c, shape);
    const auto measured = time_alternating({{copy.run}, {blas.run}}, options);
    roofs.memcpy_gbps = copy.work / (measured[0].median_ms * 1e-3) / 1e9;
    roofs.cublas_gflops = blas.work / (measured[1].median_ms * 1e-3) / 1e9;
  } catch (const std::exception&) {
    // The chart is help, not a verdict: without roofs it is left out.
  }
  return roofs;
}

TimedWork naive_reference(const float* a, const float* b, float* c, const MatmulShape& shape) {
  return {"naive kernel, one thread per element (16x16 blocks)",
          [=] {
            const dim3 block(16, 16);
            const dim3 grid((shape.n + 15) / 16, (shape.m + 15) / 16);
            naive_matmul_kernel<<<grid, block>>>(a, b, c, shape.m, shape.k, shape.n);
          },
          shape.flops()};
}

}  // namespace harness
