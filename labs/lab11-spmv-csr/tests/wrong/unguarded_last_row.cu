// must-fail: SpmvCsr.Example SpmvCsr.Integers SpmvCsr.Reals SpmvCsr.OneThreadPerRow
// diagnosis: out_of_bounds_write
// Known-wrong: the grid is rounded up to whole blocks, but the kernel has no `if (row <
// num_rows)`: the threads past the last row read row_ptr past its end and store into y past its
// end. Right only when num_rows is a multiple of the block (the speed check's 2^20 rows are).
#include "lab11.h"

__global__ void spmv_csr_kernel(int num_rows, const float* data, const int* col_index,
                                const int* row_ptr, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float dot = 0;
  for (int elem = row_ptr[row]; elem < row_ptr[row + 1]; ++elem) {
    dot += data[elem] * x[col_index[elem]];
  }
  y[row] = dot;
}

void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y) {
  spmv_csr_kernel<<<(num_rows + 127) / 128, 128>>>(num_rows, data, col_index, row_ptr, x, y);
}
