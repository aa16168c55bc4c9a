// One CUDA process's life as a lab program's: start CUDA, allocate, fill, run and free a buffer
// twenty times, end. Prints its three parts in seconds (scripts/cuda-start-bench.sh runs many at
// once to see what the driver serialises across the host).
#include <chrono>
#include <cstdio>

#include <cuda_runtime.h>

__global__ void touch(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}

static double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main() {
  const double started = seconds_now();
  if (cudaFree(nullptr) != cudaSuccess) {
    std::fprintf(stderr, "cuda_start_probe: no usable GPU\n");
    return 77;
  }
  const double context_made = seconds_now();
  const int n = 1 << 22;
  for (int round = 0; round < 20; ++round) {
    float* data = nullptr;
    cudaMalloc(&data, n * sizeof(float));
    cudaMemset(data, 0, n * sizeof(float));
    touch<<<(n + 255) / 256, 256>>>(data, n);
    cudaDeviceSynchronize();
    cudaFree(data);
  }
  const double worked = seconds_now();
  cudaDeviceReset();
  const double ended = seconds_now();
  std::printf("%.3f %.3f %.3f\n", context_made - started, worked - context_made, ended - worked);
  return 0;
}
