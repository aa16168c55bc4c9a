// Lab 9: matrix transpose. The contract between your kernel.cu and the grader: keep these
// signatures. `in` is a rows x cols matrix, `out` a cols x rows one, both row-major float32 in
// device memory; rows and cols are any sizes from 1 up (not only multiples of a block). The
// grader allocates both, calls your launcher, then synchronizes and checks errors.
#pragma once

// out[c][r] = in[r][c] (out[c * rows + r] = in[r * cols + c]), one thread per element.
void transpose(const float* in, float* out, int rows, int cols);

// The same, through a shared-memory tile: each block reads a tile of `in` along its rows, and
// writes it to `out` along out's rows. The tile is padded by one column against bank conflicts.
void transpose_tiled(const float* in, float* out, int rows, int cols);
