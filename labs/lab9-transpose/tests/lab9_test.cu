// Lab 9's graded checks, one per entry of ../spec.json (points, sizes, thresholds): the harness's
// checks of a buffers-in, buffer-out lab (harness/buffer_checks.hpp) told what a transpose is.
#include <string>
#include <vector>

#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "lab9.h"

namespace {

// The CPU reference: out (cols x rows) = in (rows x cols) transposed, exactly.
harness::Expected transposed(const harness::CaseData& data) {
  const auto rows = data.size.rows;
  const auto cols = data.size.cols;
  const auto& in = data.inputs[0].floats();
  std::vector<float> out(in.size());
  for (long long r = 0; r < rows; ++r) {
    for (long long c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  }
  return {out};
}

// The same on the GPU, for the speed checks' 8192 x 8192, where every timed call has new inputs
// and its output is verified: one thread per element, plain and trusted.
__global__ void transpose_reference_kernel(const float* in, float* out, int rows, int cols) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) {
    out[static_cast<long long>(col) * rows + row] = in[static_cast<long long>(row) * cols + col];
  }
}

bool transposed_on_device(const harness::DeviceArgs& a, float* expected, float*) {
  const dim3 block(32, 8);
  const dim3 grid((a.cols() + 31) / 32, (a.rows() + 7) / 8);
  transpose_reference_kernel<<<grid, block>>>(a.in(0), expected, a.rows(), a.cols());
  CUDA_CHECK(cudaGetLastError());
  return false;  // exact
}

harness::BufferLab transpose_lab(const std::string& name, decltype(&transpose) transpose) {
  return harness::BufferLab(name, name + "(in, out, {rows}, {cols})")
      .input("in", harness::rows_by_cols)
      .output("out", harness::cols_by_rows)
      .call([transpose](const harness::DeviceArgs& a) {
        transpose(a.in(0), a.output, a.rows(), a.cols());
      })
      .reference(transposed)
      .device_reference(transposed_on_device);
}

const auto kNaive = transpose_lab("transpose", transpose);
const auto kTiled = transpose_lab("transpose_tiled", transpose_tiled);

}  // namespace

LAB_CHECK(Transpose, Correctness) { harness::check_correctness(check, kNaive); }

LAB_CHECK(Transpose, OneThreadPerElement) { harness::check_one_thread_per_element(check, kNaive); }

LAB_CHECK(Transpose, Speed) { harness::check_speed(check, kNaive); }

LAB_CHECK(TransposeTiled, Correctness) { harness::check_correctness(check, kTiled); }

LAB_CHECK(TransposeTiled, SharedMemory) {
  harness::check_uses_shared_memory(
      check, kTiled, {"The tile must be a __shared__ array, and out written from it"});
}

LAB_CHECK(TransposeTiled, Speed) { harness::check_speed(check, kTiled); }
