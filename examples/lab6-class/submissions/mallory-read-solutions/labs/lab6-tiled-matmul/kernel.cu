// Sample (hostile): before main, looks for the instructor's solutions/lab6*/kernel.cu around the
// working folder, $HOME, /root, /work/main and the lab program's own folder and build paths.
// Expected: graded, 0/100, and never "HOSTILE-READ-SOLUTIONS: succeeded".
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "lab6.h"

namespace {

std::string slurp(const std::string& path, size_t limit) {
  std::string text;
  int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return text;
  char buf[65536];
  ssize_t n;
  while (text.size() < limit && (n = read(fd, buf, sizeof buf)) > 0) text.append(buf, n);
  close(fd);
  return text;
}

std::string parent(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return path.substr(0, slash);
}

// Places an instructor's tree could be: the folders above the working folder, above the lab
// program, and every absolute path compiled into the lab program (spec.json, harness sources).
std::vector<std::string> places() {
  std::vector<std::string> bases = {".", "..", "../..", "../../..", "/work/main", "/work", "/root"};
  if (const char* home = getenv("HOME")) bases.push_back(home);
  char cwd[PATH_MAX];
  if (getcwd(cwd, sizeof cwd)) {
    for (std::string d = cwd; d != "/"; d = parent(d)) bases.push_back(d);
  }
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = 0;
    for (std::string d = parent(exe); d != "/"; d = parent(d)) bases.push_back(d);
  }
  std::string image = slurp("/proc/self/exe", 512u << 20);
  size_t start = 0;
  for (size_t i = 0; i <= image.size(); ++i) {
    if (i < image.size() && image[i] >= 0x20 && image[i] < 0x7f) continue;
    if (i - start > 6 && image[start] == '/') {
      std::string s = image.substr(start, i - start);
      for (const char* mark : {"/labs/", "/harness/", "/solutions/", "/grader/"}) {
        size_t at = s.find(mark);
        if (at != std::string::npos && at > 0) bases.push_back(s.substr(0, at));
      }
    }
    start = i + 1;
  }
  return bases;
}

struct ReadSolutions {
  ReadSolutions() {
    std::set<std::string> tried;
    int found = 0;
    auto attempt = [&](const std::string& file) {
      if (!tried.insert(file).second) return;
      std::string text = slurp(file, 1 << 20);
      if (text.empty()) return;
      ++found;
      const int first_line = static_cast<int>(std::min<size_t>(text.find('\n'), 80));
      dprintf(1, "HOSTILE-READ-SOLUTIONS: succeeded: read %zu bytes of %s; it begins: %.*s\n",
              text.size(), file.c_str(), first_line, text.c_str());
    };
    auto scan = [&](const std::string& dir) {  // dir/lab6*/kernel.cu
      if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
          if (strncmp(e->d_name, "lab6", 4) == 0) attempt(dir + "/" + e->d_name + "/kernel.cu");
        }
        closedir(d);
      }
    };
    for (const std::string& base : places()) {
      attempt(base + "/solutions/lab6-tiled-matmul/kernel.cu");
      scan(base + "/solutions");
      if (base.size() >= 9 && base.compare(base.size() - 9, 9, "solutions") == 0) scan(base);
    }
    if (!found) {
      dprintf(1, "HOSTILE-READ-SOLUTIONS: failed: no solutions/lab6*/kernel.cu readable (%zu paths)\n",
              tried.size());
    }
  }
} reader;

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
