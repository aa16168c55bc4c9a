// Lab 1's graded checks. Each LAB_CHECK matches an entry of ../spec.json, which gives its points,
// sizes and thresholds. The checks themselves are the harness's for any lab that maps input
// buffers to an output buffer (harness/buffer_checks.hpp): this file says what a copy is.
#include <string>

#include "harness/buffer_checks.hpp"
#include "harness/cuda_check.hpp"
#include "harness/student_call.hpp"
#include "lab1.h"
#include "lab1_bonus.h"

// The bonus is optional: bonus.cu may be absent from a submission. The lab program always has
// the function (its proxy, cmake/LabContract.cmake); whether the submission defines it is the
// launcher's answer, LAB_STUDENT_DEFINES (harness/student_call.hpp).

namespace {

using CopyFunction = void (*)(const float* in, float* out, int rows, int cols);

// copy(in, out, rows, cols): `out` is `in`, element for element (exact). At the speed checks'
// sizes the expected copy is made on the GPU.
harness::BufferLab copy_lab(const std::string& name, CopyFunction copy) {
  return harness::BufferLab(name, name + "(in, out, {rows}, {cols})")
      .input("in", harness::rows_by_cols)
      .output("out", harness::rows_by_cols)
      .call([copy](const harness::DeviceArgs& a) { copy(a.in(0), a.output, a.rows(), a.cols()); })
      .reference(
          [](const harness::CaseData& data) { return harness::Expected{data.inputs[0].floats()}; })
      .device_reference([](const harness::DeviceArgs& a, float* expected, float*) {
        const auto bytes = static_cast<std::size_t>(a.size.rows * a.size.cols) * sizeof(float);
        CUDA_CHECK(cudaMemcpy(expected, a.in(0), bytes, cudaMemcpyDeviceToDevice));
        return false;  // exact
      });
}

const auto kCopy = copy_lab("copy_matrix", copy_matrix);
const auto kStrided = copy_lab("copy_matrix_strided", copy_matrix_strided);
const auto kFast = copy_lab("copy_matrix_fast", copy_matrix_fast);

}  // namespace

LAB_CHECK(CopyMatrix, Correctness) { harness::check_correctness(check, kCopy); }

LAB_CHECK(CopyMatrix, OneThreadPerElement) { harness::check_one_thread_per_element(check, kCopy); }

LAB_CHECK(CopyMatrix, Speed) { harness::check_speed(check, kCopy); }

LAB_CHECK(CopyMatrixStrided, Correctness) { harness::check_correctness(check, kStrided); }

LAB_CHECK(CopyMatrixStrided, ElementsPerThread) {
  harness::check_elements_per_thread(
      check, kStrided, {false, "make the grid shorter in y", "one_element_per_thread"});
}

LAB_CHECK(CopyMatrixStrided, Speed) { harness::check_speed(check, kStrided); }

// ---- bonus (optional, extra points): copy_matrix_fast in bonus.cu ---------------------------

LAB_CHECK(CopyMatrixFast, Correctness) {
  if (!harness::bonus_attempted(check, kFast, LAB_STUDENT_DEFINES(copy_matrix_fast))) return;
  harness::check_correctness(check, kFast);
}

LAB_CHECK(CopyMatrixFast, ElementsPerThread) {
  if (!harness::bonus_attempted(check, kFast, LAB_STUDENT_DEFINES(copy_matrix_fast))) return;
  harness::check_elements_per_thread(
      check, kFast,
      {false, "a grid-stride loop over float4s with a grid of a few blocks per SM", ""});
}

LAB_CHECK(CopyMatrixFast, Speed) {
  if (!harness::bonus_attempted(check, kFast, LAB_STUDENT_DEFINES(copy_matrix_fast))) return;
  harness::check_speed(check, kFast);
}
