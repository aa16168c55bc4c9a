// Lab 10: parallel sum reduction. The contract between your kernel.cu and the grader: keep this
// signature. `in` holds n float32 values in device memory, for any n >= 1 (not only powers of two
// or multiples of your block size); `out` points to one float in device memory.
// The grader allocates both, calls your launcher, then synchronizes and checks errors.
#pragma once

// Add up in[0] .. in[n-1] and store the sum in out[0]. out[0] holds garbage (the grader fills it
// with NaN) when reduce_sum is called: set it, do not only add to it. Leave `in` unchanged.
void reduce_sum(const float* in, float* out, int n);
