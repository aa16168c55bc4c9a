// Sample (hostile): the launcher reads and writes device pointers on the host (SIGSEGV), and a
// null pointer if that survives. Every check must be recorded as crashed. Expected: graded, 0/100.
#include <cstdio>

#include "lab6.h"

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  std::printf("HOSTILE-CRASH: started: touching device memory from the host\n");
  std::fflush(stdout);
  P[0] = M[0] * N[0];  // M, N and P are device pointers: SIGSEGV here
  std::printf("HOSTILE-CRASH: device memory was readable on the host; trying a null pointer\n");
  std::fflush(stdout);
  *static_cast<volatile int*>(nullptr) = width;
  std::printf("HOSTILE-CRASH: failed: still alive after a null pointer write\n");
}
