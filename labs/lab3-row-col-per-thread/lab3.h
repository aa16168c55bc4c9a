// Lab 3: one row or one column of P per thread. The contract between your kernel.cu and the
// grader: keep these signatures.
// M, N and P are Width x Width matrices (square), row-major float32 in device memory; Width is any
// size from 1 up (1, 31, 100 and 300 are all tested), so round the grid up and guard against
// threads past the last row (or column). The grader allocates the matrices, calls your launcher,
// then synchronizes and checks errors.
#pragma once

// P = M * N; each thread computes one whole row of P (Width threads in all, rounded up to a
// whole number of blocks).
void matmul_row_per_thread(const float* M, const float* N, float* P, int width);

// P = M * N; each thread computes one whole column of P.
void matmul_col_per_thread(const float* M, const float* N, float* P, int width);
