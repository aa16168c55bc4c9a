// must-fail: SpmvCsr.Example SpmvCsr.Integers SpmvCsr.Reals SpmvCsr.OneThreadPerRow SpmvCsr.Speed
// diagnosis: empty_rows
// Known-wrong: stores y[row] inside the loop over the row's nonzeros, after each addition. The
// sums are right for every row that has a nonzero, but an empty row runs the loop zero times and
// y[row] is never written (the grader filled it with NaN), where it should be 0.
#include "lab11.h"

__global__ void spmv_csr_kernel(int num_rows, const float* data, const int* col_index,
                                const int* row_ptr, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0;
    for (int elem = row_ptr[row]; elem < row_ptr[row + 1]; ++elem) {
      dot += data[elem] * x[col_index[elem]];
      y[row] = dot;
    }
  }
}

void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y) {
  spmv_csr_kernel<<<(num_rows + 127) / 128, 128>>>(num_rows, data, col_index, row_ptr, x, y);
}
