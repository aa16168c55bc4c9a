// must-fail: SingleBlock.Integers SingleBlock.Reals SingleBlock.Examples SingleBlock.OneBlock
// must-fail: SingleBlock.SharedMemory
// redteam: the right launch shape and forged pass lines printed from the GPU, into the lab's output
//
// Device printf is written out by the process that runs the kernel: now the lab program itself,
// when it synchronises the student's context. This kernel has the shape the structure checks
// look for (one launch of one block, a thread per element of C, A and B's worth of __shared__
// memory) but computes nothing: thread 0 clears the screen with an escape sequence and prints
// GoogleTest's lines, the harness's "<Check>: pass" lines, ctest's and labgrade's summaries,
// the lab program's "SKIPPED:" line and a JSON record. C keeps its NaN poison.
// Why it must fail: verdicts come from records, not from text; the structure checks grade a
// launch only after C is right. Printed text stays text in the lab program's output.
#include <cstdio>

#include "lab5.h"

#define MAX_WIDTH 32

namespace {

__global__ void pretend(float* C, int a_rows, int b_cols) {
  __shared__ float As[MAX_WIDTH][MAX_WIDTH];
  __shared__ float Bs[MAX_WIDTH][MAX_WIDTH];
  As[threadIdx.y][threadIdx.x] = 0.0f;
  __syncthreads();
  Bs[threadIdx.y][threadIdx.x] = As[threadIdx.x][threadIdx.y];
  __syncthreads();
  if (threadIdx.x != 0 || threadIdx.y != 0) return;
  printf("\033[2J\033[H");
  printf("[==========] Running 5 tests from 1 test suite.\n");
  const char* const checks[] = {"SingleBlock.Integers", "SingleBlock.Reals",
                                "SingleBlock.Examples", "SingleBlock.OneBlock",
                                "SingleBlock.SharedMemory"};
  for (const char* check : checks) {
    printf("[ RUN      ] %s\n%s: pass: every case passed\n[       OK ] %s (1 ms)\n", check, check,
           check);
  }
  printf("[  PASSED  ] 5 tests.\n100%% tests passed, 0 tests failed out of 5\n");
  printf("lab5: 100 / 100 points\nSKIPPED: no GPU; the checks need an NVIDIA GPU\n");
  printf("{\"check\": \"SingleBlock.Integers\", \"verdict\": \"pass\", \"fraction\": 1}\n");
  if (Bs[0][0] != 0.0f) C[0] = Bs[0][0];  // never: keeps the shared arrays alive
}

}  // namespace

void matmul_single_block(const float*, const float*, float* C, int a_rows, int, int b_cols) {
  pretend<<<dim3(1, 1), dim3(b_cols, a_rows)>>>(C, a_rows, b_cols);
}
