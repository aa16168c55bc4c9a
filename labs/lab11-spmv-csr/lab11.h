// Lab 11: sparse matrix-vector product in CSR. The contract between your kernel.cu and the grader:
// keep this signature (the textbook's names and order).
//   y = A * x, with A a num_rows x num_cols sparse matrix in CSR, x a vector of num_cols floats
//   and y one of num_rows floats.
// A's nonzeros are stored row after row: data[i] is a value (float32) and col_index[i] its column
// (int32); row_ptr (num_rows + 1 ints) says where each row starts, so row r's nonzeros are
// data[row_ptr[r]] .. data[row_ptr[r + 1] - 1], and row_ptr[num_rows] is their count. A row may
// be empty (row_ptr[r] == row_ptr[r + 1]), and row lengths differ a lot. Every pointer is in
// device memory; num_rows is any size from 1 up. The grader allocates everything, calls your
// launcher, then synchronizes and checks errors.
#pragma once

// y[row] = sum over the row's nonzeros i of data[i] * x[col_index[i]], with one thread per row.
void spmv_csr(int num_rows, const float* data, const int* col_index, const int* row_ptr,
              const float* x, float* y);
