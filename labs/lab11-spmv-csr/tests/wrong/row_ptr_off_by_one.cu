// must-fail: SpmvCsr.Example SpmvCsr.Integers SpmvCsr.Reals SpmvCsr.OneThreadPerRow SpmvCsr.Speed
// diagnosis: row_ptr_off_by_one
// Known-wrong: reads the row's range one entry of row_ptr too far, from row_ptr[row + 1] to
// row_ptr[row + 2], as if row_ptr[0] were the start of row -1. Each y[row] gets the next row's
// sum, and the last row reads row_ptr[num_rows + 1], past the end of row_ptr.
#include "lab11.h"

__global__ void spmv_csr_kernel(int num_rows, const float* data, const int* col_index,
                                const int* row_ptr, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0;
    for (int elem = row_ptr[row + 1]; elem < row_ptr[row + 2]; ++elem) {
      dot += data[elem] * x[col_index[elem]];
    }
    y[row] = dot;
  }
}

void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y) {
  spmv_csr_kernel<<<(num_rows + 127) / 128, 128>>>(num_rows, data, col_index, row_ptr, x, y);
}
