// Lab 5: matrix multiplication in a single block, with A and B held in shared memory. The
// contract between your kernel.cu and the grader: keep this signature.
//   C (a_rows x b_cols) = A (a_rows x a_cols) * B (a_cols x b_cols), row-major float32.
// Every pointer is in device memory. Size limits: 1 <= a_rows, a_cols, b_cols <= 32, so C is at
// most 32 x 32 (one block of at most 1024 threads can give each element a thread) and A and B
// fit in two 32 x 32 shared arrays. a_cols may be larger than a_rows and b_cols, or smaller.
// The grader allocates A, B and C, calls your launcher, then synchronizes and checks errors.
#pragma once

// Computes C = A * B with one launch of one thread block.
void matmul_single_block(const float* A, const float* B, float* C, int a_rows, int a_cols,
                         int b_cols);
