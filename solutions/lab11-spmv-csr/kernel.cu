// Lab 11 reference solution: sparse matrix-vector product y = A * x in CSR, one thread per row
// (the textbook's SpMV/CSR kernel).
#include "lab11.h"

// Thread `row` walks its row's nonzeros, data[row_ptr[row]] .. data[row_ptr[row + 1] - 1]. An
// empty row runs the loop zero times and stores 0. The guard matters: the grid is rounded up to
// whole blocks, and a thread past the last row would read row_ptr[row + 1] past its end.
__global__ void spmv_csr_kernel(int num_rows, const float* data, const int* col_index,
                                const int* row_ptr, const float* x, float* y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0;
    int row_start = row_ptr[row];
    int row_end = row_ptr[row + 1];
    for (int elem = row_start; elem < row_end; ++elem) {
      dot += data[elem] * x[col_index[elem]];
    }
    y[row] = dot;
  }
}

void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y) {
  const int threads = 128;
  const int blocks = (num_rows + threads - 1) / threads;  // round up: every row gets a thread
  spmv_csr_kernel<<<blocks, threads>>>(num_rows, data, col_index, row_ptr, x, y);
}
