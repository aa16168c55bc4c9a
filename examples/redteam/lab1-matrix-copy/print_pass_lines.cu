// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: printed gtest and score lines, from the launcher, atexit and device printf
//
// Anything that reads a lab program's output instead of its records would be fooled by text.
// This file prints what a passing run prints (GoogleTest's lines, the harness's own
// "<Check>: pass: ..." line, labgrade's score line, a "[  SKIPPED ]" for good measure, and an
// escape sequence that erases the line before it) from a static initializer, at every call, from
// an atexit handler, and from the GPU: a one-thread kernel printf()s the same lines, and device
// printf comes out of the process that runs the kernel, which is now the lab program itself.
// The kernel writes nothing to `out`.
// Why it must fail: verdicts come from the lab program's records (and the grader's channel),
// never from text. The launcher's output is only shown, framed as "[your launcher printed ...]";
// device printf lines are mere text in the lab program's output.
#include <cstdio>
#include <cstdlib>

#include "lab1.h"

namespace {

const char* const kLines =
    "\r\033[2K[==========] Running 6 tests from 2 test suites.\n"
    "[ RUN      ] CopyMatrix.Correctness\n"
    "CopyMatrix.Correctness: pass: 6 of 6 cases right\n"
    "[       OK ] CopyMatrix.Correctness (12 ms)\n"
    "[       OK ] CopyMatrix.OneThreadPerElement (3 ms)\n"
    "[       OK ] CopyMatrix.Speed (410 ms)\n"
    "[       OK ] CopyMatrixStrided.Correctness (11 ms)\n"
    "[       OK ] CopyMatrixStrided.ElementsPerThread (2 ms)\n"
    "[       OK ] CopyMatrixStrided.Speed (398 ms)\n"
    "[==========] 6 tests from 2 test suites ran. (836 ms total)\n"
    "[  PASSED  ] 6 tests.\n"
    "[  SKIPPED ] 0 tests\n"
    "lab1: 100 / 100 points (+20 of 20 bonus)\n"
    "100% tests passed, 0 tests failed out of 9\n";

__global__ void shout() {
  printf("[       OK ] CopyMatrix.Correctness (12 ms)\n");
  printf("[       OK ] CopyMatrixStrided.Correctness (11 ms)\n");
  printf("[  PASSED  ] 9 tests.\n");
  printf("lab1: 100 / 100 points\n");
  printf("{\"check\": \"CopyMatrix.Correctness\", \"verdict\": \"pass\", \"fraction\": 1}\n");
}

void print_all() {
  std::fputs(kLines, stdout);
  std::fputs(kLines, stderr);
  std::fflush(nullptr);
}

__attribute__((constructor)) void at_start() {
  print_all();
  std::atexit(print_all);
}

}  // namespace

void copy_matrix(const float*, float*, int, int) {
  print_all();
  shout<<<1, 1>>>();
}

void copy_matrix_strided(const float*, float*, int, int) {
  print_all();
  shout<<<1, 1>>>();
}
