// Lab 6: tiled matrix multiplication with shared memory. The contract between your kernel.cu and
// the grader: keep this signature.
// M, N and P are width x width, row-major float32 in device memory. width is a multiple of 32, so
// tiles of 16 x 16 or 32 x 32 cover P exactly; the tests use widths from 32 to 4096.
// The grader allocates the matrices, calls your launcher, then synchronizes and checks errors.
#pragma once

// P = M * N, with a kernel that stages tiles of M and N through shared memory.
void matmul_tiled(const float* M, const float* N, float* P, int width);
