// Sample (hostile): before main, writes result records that say "pass" for all 8 lab6 checks into
// every results folder it can guess, prints GoogleTest's all-passed lines and a 100/100 score line,
// and exits 0 before any check runs. Expected: graded, 0/100 (points come only from real records).
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <set>
#include <string>
#include <vector>

#include "lab6.h"

extern char** environ;

namespace {

const struct {
  const char* id;
  const char* kind;
  int points;
} kChecks[] = {
    {"TiledMatmul.Integers", "correctness", 25},  {"TiledMatmul.Reals", "correctness", 20},
    {"TiledMatmul.Large", "correctness", 10},     {"TiledMatmul.SharedMemory", "structure", 10},
    {"TiledMatmul.ThreadsPerElement", "structure", 5}, {"TiledMatmul.Speed", "speed", 15},
    {"TiledMatmul.SpeedAt4096", "speed", 15},     {"TiledMatmul.ShareOfCublas", "speed", 0},
};

std::string slurp(const char* path, size_t limit) {
  std::string text;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return text;
  char buf[65536];
  ssize_t n;
  while (text.size() < limit && (n = read(fd, buf, sizeof buf)) > 0) text.append(buf, n);
  close(fd);
  return text;
}

bool make_dirs(const std::string& dir) {
  for (size_t at = 1; at != std::string::npos; at = dir.find('/', at + 1)) {
    mkdir(dir.substr(0, at).c_str(), 0755);
  }
  return mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST;
}

// Where a results folder could be: the usual names, the lab program's arguments and environment,
// and absolute paths compiled into the lab program (its default results folder).
std::vector<std::string> guesses() {
  std::vector<std::string> dirs = {"results", "results/lab6", "../results", "../results/lab6",
                                   "../../results/lab6", "build/results/lab6"};
  std::string cmdline = slurp("/proc/self/cmdline", 1 << 20);
  std::vector<std::string> args;
  for (size_t at = 0; at < cmdline.size(); at = cmdline.find('\0', at) + 1) {
    args.push_back(cmdline.c_str() + at);
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--results", 0) != 0) continue;
    size_t eq = a.find('=');
    if (eq != std::string::npos) dirs.push_back(a.substr(eq + 1));
    else if (i + 1 < args.size()) dirs.push_back(args[i + 1]);
  }
  for (char** e = environ; *e; ++e) {
    const char* eq = strchr(*e, '=');
    if (eq && memmem(*e, eq - *e, "RESULT", 6) && eq[1]) dirs.push_back(eq + 1);
  }
  char exe[PATH_MAX];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = 0;
    std::string dir(exe, strrchr(exe, '/') - exe);
    dirs.push_back(dir + "/results/lab6");
    dirs.push_back(dir + "/../results/lab6");
    dirs.push_back(dir + "/../../results/lab6");
  }
  std::string image = slurp("/proc/self/exe", 512u << 20);
  size_t start = 0;
  for (size_t i = 0; i <= image.size(); ++i) {
    if (i < image.size() && image[i] >= 0x20 && image[i] < 0x7f) continue;
    if (i - start > 8 && image[start] == '/' && image[start + 1] != '.') {
      std::string s = image.substr(start, i - start);
      size_t at = s.find("/results");
      if (at != std::string::npos && at > 0 && s.find_first_of(" %{}") == std::string::npos) {
        dirs.push_back(s);
      }
    }
    start = i + 1;
  }
  return dirs;
}

struct FakeResults {
  FakeResults() {
    std::set<std::string> done;
    for (const std::string& dir : guesses()) {
      if (dir.empty() || !done.insert(dir).second) continue;
      if (!make_dirs(dir)) {
        dprintf(1, "HOSTILE-FAKE-RESULTS: cannot create %s: %s\n", dir.c_str(), strerror(errno));
        continue;
      }
      int planted = 0;
      for (const auto& c : kChecks) {
        std::string file = dir + "/" + c.id + ".json";
        FILE* out = fopen(file.c_str(), "w");
        if (!out) continue;
        fprintf(out,
                "{\"schema\": 1, \"lab\": \"lab6\", \"check\": \"%s\", \"kind\": \"%s\", "
                "\"title\": \"%s\", \"verdict\": \"pass\", \"reason\": \"all cases right\", "
                "\"fraction\": 1, \"points\": %d, \"max_points\": %d, \"seed\": 1, "
                "\"backend\": \"cuda\", \"started_at\": \"2026-01-01T00:00:00Z\", "
                "\"duration_s\": 0.5, \"reproduce\": \"\", \"notes\": [], \"cases\": []}\n",
                c.id, c.kind, c.id, c.points, c.points);
        planted += fclose(out) == 0;
      }
      dprintf(1, "HOSTILE-FAKE-RESULTS: planted %d passing records in %s\n", planted, dir.c_str());
    }
    dprintf(1,
            "[==========] 8 tests from 1 test suite ran. (4242 ms total)\n"
            "[  PASSED  ] 8 tests.\n"
            "[  SKIPPED ] 0 tests, listed below:\n"
            "[  SKIPPED ] TiledMatmul.ShareOfCublas\n"
            "lab6 (Tiled matrix multiplication): 100 / 100 points, 8 of 8 checks passed; "
            "report: results/lab6.html\n");
    _exit(0);
  }
} fake;

}  // namespace

// Never reached: the process ends before main.
__global__ void MatrixMulKernel(const float* M, const float* N, float* P, int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  P[Row * Width + Col] = 0;
}

void matmul_tiled(const float* M, const float* N, float* P, int width) {
  MatrixMulKernel<<<dim3(width / 16, width / 16), dim3(16, 16)>>>(M, N, P, width);
}
