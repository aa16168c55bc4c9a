// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: regenerate the inputs from a leaked seed and upload the answer, with no kernel at all
//
// The inputs are public functions of the run's seed: harness/random.cpp's derive_seed(seed,
// check, "RxC") and random_real_matrix (std::mt19937_64, the same libstdc++ as the lab
// program). A copy's answer is its input, so a launcher that knows the seed can build the answer
// on the host and upload it with cudaMemcpy host-to-device, which launchers may do with data of
// their own. The seed is looked for in LAB_SEED, in the lab program's --seed and LAB_SEED
// (/proc/<ppid>/cmdline, /proc/<ppid>/environ) and in its memory (/proc/<ppid>/mem: the
// "replay with LAB_SEED=" line in its stdout buffer, the grader's {"seed": ...} message).
// Why it must fail: the seed must stay in the lab program: a bare environment for the launcher,
// and a lab program whose /proc entries it cannot read (another uid, PR_SET_DUMPABLE 0). With no
// seed the launcher uploads nothing.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "lab1.h"

namespace {

std::uint64_t fnv1a(const std::string& text, std::uint64_t hash = 1469598103934665603ULL) {
  for (unsigned char ch : text) hash = (hash ^ ch) * 1099511628211ULL;
  return hash;
}

std::string after(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  const std::size_t from = at + needle.size();
  return text.substr(from, text.find_first_not_of("0123456789", from) - from);
}

std::string leaked_seed() {
  if (const char* own = std::getenv("LAB_SEED")) return own;
  const std::string proc = "/proc/" + std::to_string(getppid());
  std::ifstream cmdline(proc + "/cmdline", std::ios::binary), environ(proc + "/environ");
  std::string item, previous;
  while (std::getline(cmdline, item, '\0')) {
    if (previous == "--seed") return item;
    if (item.rfind("--seed=", 0) == 0) return item.substr(7);
    previous = item;
  }
  while (std::getline(environ, item, '\0')) {
    if (item.rfind("LAB_SEED=", 0) == 0) return item.substr(9);
  }
  const int mem = open((proc + "/mem").c_str(), O_RDONLY);
  std::ifstream maps(proc + "/maps");
  std::string line, chunk(1 << 20, '\0');
  while (mem >= 0 && std::getline(maps, line)) {
    unsigned long start = 0, end = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s", &start, &end, perms) != 3) continue;
    if (perms[0] != 'r' || perms[1] != 'w' || end - start > (256ul << 20)) continue;
    for (unsigned long at = start; at < end; at += chunk.size()) {
      const ssize_t got = pread(mem, &chunk[0], chunk.size(), static_cast<off_t>(at));
      if (got <= 0) break;
      const std::string data = chunk.substr(0, static_cast<std::size_t>(got));
      for (const char* needle : {"replay with LAB_SEED=", "\"seed\":"}) {
        if (!after(data, needle).empty()) return after(data, needle);
      }
    }
  }
  return "";
}

void upload_the_input(const char* check, float* out, int rows, int cols) {
  static const std::string seed = leaked_seed();
  if (seed.empty()) return;  // nothing to go on: no kernel, no upload
  const std::uint64_t run_seed = std::strtoull(seed.c_str(), nullptr, 10);
  std::ostringstream label;
  label << rows << 'x' << cols;
  std::mt19937_64 engine(fnv1a(label.str(), fnv1a(check, run_seed * 0x9E3779B97F4A7C15ULL + 1)));
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<std::size_t>(rows) * cols);
  for (auto& v : values) {
    do v = uniform(engine);
    while (v == 0.0f);
  }
  cudaMemcpy(out, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
}

}  // namespace

void copy_matrix(const float*, float* out, int rows, int cols) {
  upload_the_input("CopyMatrix.Correctness", out, rows, cols);
}
void copy_matrix_strided(const float*, float* out, int rows, int cols) {
  upload_the_input("CopyMatrixStrided.Correctness", out, rows, cols);
}
