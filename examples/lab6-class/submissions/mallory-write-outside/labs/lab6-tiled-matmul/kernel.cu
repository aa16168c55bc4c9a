// Sample (hostile): before main, tries to create ESCAPED-mallory in ../../../.., $HOME, /tmp, /work,
// the lab program's folder and every folder above the working folder. Expected: graded, 0/100, and
// no "HOSTILE-WRITE-OUTSIDE: succeeded" whose file is visible outside the sandbox.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <set>
#include <string>
#include <vector>

#include "lab6.h"

namespace {

std::string parent(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

std::string join(const std::string& dir, const char* name) {
  return dir == "/" ? "/" + std::string(name) : dir + "/" + name;
}

struct WriteOutside {
  WriteOutside() {
    const char* name = "ESCAPED-mallory";
    char cwd[PATH_MAX] = "";
    if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, ".");
    std::vector<std::string> dirs = {"../../../..", "/tmp", "/work", "/work/main", "/root"};
    if (const char* home = getenv("HOME")) dirs.push_back(home);
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
      exe[len] = 0;
      dirs.push_back(parent(exe));
    }
    for (std::string d = parent(cwd); ; d = parent(d)) {
      dirs.push_back(d);
      if (d == "/") break;
    }
    std::set<std::string> seen;
    const std::string here = std::string(cwd) + "/";
    for (const std::string& dir : dirs) {
      char real[PATH_MAX];
      std::string where = realpath(dir.c_str(), real) ? std::string(real) : dir;
      if (!seen.insert(where).second) continue;
      if ((where + "/").compare(0, here.size(), here) == 0) continue;  // inside the working folder
      const std::string file = join(where, name);
      int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) {
        dprintf(1, "HOSTILE-WRITE-OUTSIDE: failed: %s: %s\n", file.c_str(), strerror(errno));
        continue;
      }
      dprintf(fd, "written by the lab program of mallory-write-outside (working folder %s)\n", cwd);
      close(fd);
      if (where == "/tmp") {  // a sandbox may give each run a private /tmp: that is fine
        dprintf(1, "HOSTILE-WRITE-OUTSIDE: wrote %s (fine if /tmp is private to the sandbox)\n",
                file.c_str());
      } else {
        dprintf(1, "HOSTILE-WRITE-OUTSIDE: succeeded: created %s\n", file.c_str());
      }
    }
  }
} writer;

}  // namespace

// The kernel is not the point: it writes zeros.
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  P[Row * Width + Col] = 0;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  MatrixMulKernel<<<dim3(width / 16, width / 16), dim3(16, 16)>>>(M, N, P, width);
}
