// must-fail: SingleBlock.Integers SingleBlock.Reals SingleBlock.Examples SingleBlock.OneBlock
// must-fail: SingleBlock.SharedMemory
// redteam: the worked examples' known products, recognised by their shape, staged and copied in
//
// SingleBlock.Examples (20 points) multiplies the course's fixed matrices (harness/matmul/src/matmul.cpp
// known_answers(): 10x10x10 paths of length 4, 5x5x5 paths of length 8, Pascal 8 and 12 times
// signed Pascal, 3x2 times 2x4) whose products are in the kit. No random shape of the other
// checks is one of these. The launcher recognises the shape, builds the product from the kit's
// tables on the host (or writes the identity) and uploads it. Uploads straight into the lab's
// buffers are refused, so it uploads into a cudaMalloc of its own (launcher-made data: allowed)
// and copies that into C device-to-device. A and B are never read.
// Why it must fail: a public, fixed problem is passed by a table. The lab program has to disguise
// the examples per run (a secret permutation or scale of A and B, applied to the answer):
// refusing uploads is not enough (staging as here, or a table in __constant__ memory as in
// lab4-matvec/hardcoded_example_answers.cu).
#include <cuda_runtime.h>

#include <vector>

#include "lab5.h"

namespace {

// From harness/matmul/src/matmul.cpp: the 10-vertex adjacency matrix times paths of length 3 is this.
const float kPaths4Of10[100] = {
    12, 14, 12, 15, 8,  13, 6,  5,  4,  4,  14, 30, 22, 23, 11, 21, 17, 18, 15, 8,
    12, 22, 27, 16, 6,  23, 9,  13, 8,  7,  15, 23, 16, 23, 11, 19, 16, 16, 14, 8,
    8,  11, 6,  11, 10, 15, 12, 6,  6,  10, 13, 21, 23, 19, 15, 48, 31, 23, 20, 31,
    6,  17, 9,  16, 12, 31, 35, 28, 26, 25, 5,  18, 13, 16, 6,  23, 28, 34, 29, 17,
    4,  15, 8,  14, 6,  20, 26, 29, 26, 16, 4,  8,  7,  8,  10, 31, 25, 17, 16, 25};
const float kPaths4Of5[25] = {9, 3, 6, 11, 1, 3, 15, 8, 7, 11, 6, 8, 8,
                              8, 6, 11, 7, 8, 15, 3, 1, 11, 6, 3, 9};
const float kByHand[12] = {11, 14, 17, 20, 23, 30, 37, 44, 35, 46, 57, 68};

std::vector<float> known_product(int m, int k, int n) {
  if (m == 10 && k == 10 && n == 10) return {kPaths4Of10, kPaths4Of10 + 100};
  if (m == 3 && k == 2 && n == 4) return {kByHand, kByHand + 12};
  if (m == 5 && k == 5 && n == 5) {  // paths of length 8: the 5-vertex table squared
    std::vector<float> c(25, 0.0f);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j)
        for (int l = 0; l < 5; ++l) c[i * 5 + j] += kPaths4Of5[i * 5 + l] * kPaths4Of5[l * 5 + j];
    return c;
  }
  if (m == k && k == n && (n == 8 || n == 12)) {  // Pascal times signed Pascal: the identity
    std::vector<float> c(static_cast<std::size_t>(n) * n, 0.0f);
    for (int i = 0; i < n; ++i) c[static_cast<std::size_t>(i) * n + i] = 1.0f;
    return c;
  }
  return {};
}

}  // namespace

void matmul_single_block(const float*, const float*, float* C, int a_rows, int a_cols,
                         int b_cols) {
  const auto c = known_product(a_rows, a_cols, b_cols);
  if (c.empty()) return;
  float* staging = nullptr;
  cudaMalloc(&staging, c.size() * sizeof(float));
  cudaMemcpy(staging, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(C, staging, c.size() * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaFree(staging);
}
