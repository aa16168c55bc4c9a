// Sample (hostile): the launcher sleeps forever on the host (no GPU work at all). Every check must
// be timed out. Expected: graded, 0/100. Prints "HOSTILE-SLEEP: started" only.
#include <unistd.h>

#include <cstdio>

#include "lab6.h"

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  std::printf("HOSTILE-SLEEP: started sleeping forever\n");
  std::fflush(stdout);
  for (;;) sleep(1000);
}
