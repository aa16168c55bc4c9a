// Sample (hostile): the launcher prints without end, in lines of 1 MiB. The grader must cap what it
// keeps of the output and time the check out. Expected: graded, 0/100.
#include <cstdio>
#include <cstring>

#include "lab6.h"

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  static char line[1 << 20];
  std::memset(line, 'A', sizeof line);
  std::memcpy(line, "HOSTILE-OUTPUT-FLOOD: ", 22);
  line[sizeof line - 1] = '\n';
  for (;;) std::fwrite(line, 1, sizeof line, stdout);
}
