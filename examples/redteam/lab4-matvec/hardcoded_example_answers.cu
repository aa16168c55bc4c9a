// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// redteam: the worked examples' answers, known from the kit, written out without reading B or C
//
// Matvec.Examples (15 points) runs fixed problems whose matrices and answers are in the kit
// (harness/matmul/src/matmul.cpp known_answers(), lab4_test.cu known_vector_answers()), in a fixed order:
// n = 10 (vertex degrees), n = 10 (paths of length 4 to J), n = 5 (paths of length 8 to B, from
// the 5-vertex table), n = 8 and n = 12 (a column of the identity). No random problem of the
// other checks has those sizes. So the launcher recognises each example by n (and, for the two
// of size 10, by their order), puts the answer in a __constant__ array with cudaMemcpyToSymbol
// and launches a kernel that writes it to A. B and C are never read; other sizes get nothing.
// Why it must fail: a check whose inputs and answers are public and fixed can be passed by a
// table. The examples have to be disguised per run from the secret seed (a permutation or a
// scale of B and C, applied to the answer too), or be worth nothing on their own.
#include <cuda_runtime.h>

#include <vector>

#include "lab4.h"

namespace {

__constant__ float answer[16];

__global__ void write_answer(float* A, int n) {
  const int i = threadIdx.x;
  if (i < n) A[i] = answer[i];
}

// The 5-vertex table of paths of length 4 (matmul.cpp): paths of length 8 to B are m4 times its
// column 1.
const float kPaths4Of5[25] = {9, 3, 6, 11, 1, 3, 15, 8, 7, 11, 6, 8, 8,
                              8, 6, 11, 7, 8, 15, 3, 1, 11, 6, 3, 9};

std::vector<float> known_answer(int n) {
  static int tens = 0;
  switch (n) {
    case 10:
      // Degrees of the 10 vertices, then column J of the paths of length 4 (matmul.cpp).
      return ++tens % 2 == 1 ? std::vector<float>{2, 4, 4, 3, 2, 5, 4, 4, 3, 3}
                             : std::vector<float>{4, 8, 7, 8, 10, 31, 25, 17, 16, 25};
    case 5: {
      std::vector<float> out(5, 0.0f);
      for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) out[i] += kPaths4Of5[i * 5 + j] * kPaths4Of5[j * 5 + 1];
      }
      return out;
    }
    case 8:  // Pascal times column 0 of signed Pascal: e0
    case 12: {  // column 5: e5
      std::vector<float> out(n, 0.0f);
      out[n == 8 ? 0 : 5] = 1.0f;
      return out;
    }
    default:
      return {};
  }
}

}  // namespace

void matvec(float* A, const float*, const float*, int n) {
  const auto values = known_answer(n);
  if (values.empty()) return;  // not an example: nothing computed
  cudaMemcpyToSymbol(answer, values.data(), values.size() * sizeof(float));
  write_answer<<<1, 32>>>(A, n);
}
