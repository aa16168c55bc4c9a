// Lab 11: sparse matrix-vector product y = A * x, A in CSR. Write the kernel and its launcher;
// see README.md.
#include "lab11.h"

// TODO: one thread per row of A.
//   Work out this thread's row from blockIdx.x, blockDim.x and threadIdx.x. If row < num_rows,
//   add up data[i] * x[col_index[i]] for i from row_ptr[row] up to (not including)
//   row_ptr[row + 1] in a local variable that starts at 0, then store it in y[row]. An empty row
//   runs the loop zero times: y[row] must still be set (to 0).
__global__ void spmv_csr_kernel(int num_rows, const float* data, const int* col_index,
                                const int* row_ptr, const float* x, float* y) {
  // TODO
}

void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y) {
  // TODO: choose a 1D block (e.g. 128 threads), compute how many blocks it takes to give every
  // row its own thread (round up), and launch spmv_csr_kernel<<<blocks, threads>>>(...).
}
