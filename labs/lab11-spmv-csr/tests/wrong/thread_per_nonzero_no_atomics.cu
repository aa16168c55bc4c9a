// must-fail: SpmvCsr.Example SpmvCsr.Integers SpmvCsr.Reals SpmvCsr.OneThreadPerRow SpmvCsr.Speed
// diagnosis: lost_updates
// emulation: not built (the CPU emulation runs each thread's += whole before the next thread's,
// so no addition is lost there: only a GPU, where a warp's threads load y[row] together and each
// stores its own sum, shows the lost updates)
// Known-wrong: one thread per nonzero. y is zeroed first, then each thread finds its row (a
// binary search in row_ptr) and adds its product into y[row] with a plain +=, not atomicAdd. The
// threads of one row load y[row] at the same time, and all but one of their additions are lost.
#include "lab11.h"

__global__ void spmv_csr_kernel(int num_rows, const float* data, const int* col_index,
                                const int* row_ptr, const float* x, float* y) {
  int nonzeros = row_ptr[num_rows];
  for (int elem = blockIdx.x * blockDim.x + threadIdx.x; elem < nonzeros;
       elem += gridDim.x * blockDim.x) {
    int low = 0, high = num_rows - 1;  // the last row whose start is <= elem
    while (low < high) {
      int mid = (low + high + 1) / 2;
      if (row_ptr[mid] <= elem) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    y[low] += data[elem] * x[col_index[elem]];
  }
}

void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y) {
  cudaMemset(y, 0, num_rows * sizeof(float));
  spmv_csr_kernel<<<1024, 256>>>(num_rows, data, col_index, row_ptr, x, y);
}
