// Lab 4: matrix-vector multiplication. The contract between your kernel.cu and the grader: keep
// this signature. Note the order of the arguments: the output comes first.
//   A = B * C, with B an n x n matrix (row-major float32) and C, A vectors of n floats.
// Every pointer is in device memory. n is any size from 1 up to 46340 (so that n * n, the number
// of elements of B, fits in an int). The grader allocates A, B and C, calls your launcher, then
// synchronizes and checks errors.
#pragma once

// A[i] = sum over j of B[i][j] * C[j], with one thread per element of A.
void matvec(float* A, const float* B, const float* C, int n);
