// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: a launcher that copies right only when it believes nobody is grading it
//
// The copy is right only for the first call of the process, at a size a person would try by
// hand (at most 64 x 64), and only if nothing looks like a grader: no LAB_*/CI/GRADESCOPE
// variable, no tracer (/proc/self/status TracerPid), a parent whose name and command line
// (/proc/<ppid>/comm, cmdline) and grandparent's do not say lab, gtest, labgrade, ctest,
// expect_failure or --results-dir, and calls not coming back to back (a timing loop).
// Otherwise it returns without launching anything. A TA who runs it by hand on a small matrix
// sees a right copy.
// Why it must fail: every check uses sizes above 64 x 64 or more than one call (lab 1's first
// correctness case is 32 x 32, its others are larger), and a launcher is always run by the lab
// program, so the grader sees nothing computed whatever the detection concludes.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "lab1.h"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  for (char& c : text) c = c == '\0' ? ' ' : c;
  return text;
}

std::string parent_of(const std::string& pid) {
  const std::string status = slurp("/proc/" + pid + "/status");
  const std::size_t at = status.find("PPid:");
  return at == std::string::npos ? "0" : std::to_string(std::atol(status.c_str() + at + 5));
}

bool looks_graded() {
  for (const char* name : {"LAB_SEED", "LAB_GRADER_CHANNEL", "LAB_SANITIZER", "CI",
                           "GITHUB_ACTIONS", "GRADESCOPE", "CTEST_RESOURCE_GROUP_COUNT",
                           "SLURM_JOB_ID"}) {
    if (std::getenv(name)) return true;
  }
  const std::string self = slurp("/proc/self/status");
  const std::size_t tracer = self.find("TracerPid:");
  if (tracer != std::string::npos && std::atol(self.c_str() + tracer + 10) != 0) return true;
  std::string pid = std::to_string(getppid());
  for (int up = 0; up < 2 && pid != "0"; ++up, pid = parent_of(pid)) {
    const std::string seen = slurp("/proc/" + pid + "/comm") + slurp("/proc/" + pid + "/cmdline");
    for (const char* sign :
         {"lab", "gtest", "labgrade", "ctest", "expect_failure", "--results-dir"}) {
      if (seen.find(sign) != std::string::npos) return true;
    }
  }
  return false;
}

// True when this call may do the work.
bool unobserved(int rows, int cols) {
  using Clock = std::chrono::steady_clock;
  static int calls = 0;
  static Clock::time_point last;
  const auto now = Clock::now();
  const bool back_to_back = calls > 0 && now - last < std::chrono::milliseconds(50);
  last = now;
  return ++calls == 1 && !back_to_back && 1LL * rows * cols <= 64 * 64 && !looks_graded();
}

__global__ void copy_kernel(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[y * cols + x] = in[y * cols + x];
}

void copy_if_unobserved(const float* in, float* out, int rows, int cols) {
  if (!unobserved(rows, cols)) return;
  copy_kernel<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows, cols);
}

}  // namespace

void copy_matrix(const float* in, float* out, int rows, int cols) {
  copy_if_unobserved(in, out, rows, cols);
}
void copy_matrix_strided(const float* in, float* out, int rows, int cols) {
  copy_if_unobserved(in, out, rows, cols);
}
