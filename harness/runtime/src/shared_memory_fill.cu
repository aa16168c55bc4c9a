#include "harness/shared_memory_fill.hpp"

#include "harness/cuda_check.hpp"

namespace harness {

// Fills the shared memory of every multiprocessor with `value`. Shared memory is not cleared
// between kernels, so the next kernel's shared arrays start from this: a kernel that reads shared
// elements it never wrote then gives results that depend on `value`. volatile keeps the stores,
// which nothing in this kernel reads.
__global__ void fill_shared_kernel(float value, int words) {
  extern __shared__ float shared[];
  volatile float* cells = shared;
  for (int i = threadIdx.x; i < words; i += blockDim.x) cells[i] = value;
}

void fill_shared_memory(float value) {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  int bytes = 0;
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CUDA_CHECK(
      cudaFuncSetAttribute(fill_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  CUDA_CHECK(cudaFuncSetAttribute(fill_shared_kernel,
                                  cudaFuncAttributePreferredSharedMemoryCarveout, 100));
  fill_shared_kernel<<<2 * sms, 1024, static_cast<size_t>(bytes)>>>(
      value, bytes / static_cast<int>(sizeof(float)));
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace harness
