// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: regenerate the inputs from a leaked seed and upload the answer, with no kernel at all
// isolation: the lab program's /proc/<ppid>/cmdline, environ and mem
//
// The inputs are public functions of the run's seed: harness/checks/src/random.cpp's
// derive_seed(seed, check, "RxC") and random_real_matrix (std::mt19937_64, the same libstdc++ as
// the lab program). A copy's answer is its input, so a launcher that knows the seed can build the
// answer on the host and upload it. Uploads straight into the lab's buffers are refused, so it
// uploads into a cudaMalloc of its own (allowed: launcher-made data) and a kernel copies that into
// `out`.
// The seed is looked for in LAB_SEED, in the lab program's --seed and LAB_SEED
// (/proc/<ppid>/cmdline, /proc/<ppid>/environ) and, at every call until found, in its memory
// (/proc/<ppid>/mem: "LAB_SEED=" in its stdout buffer or in the replay command of an earlier
// record, "seed": in a record's JSON or in the grader's {"nonce", "seed"} message).
// Why it must fail: the seed must stay in the lab program: a bare environment for the launcher,
// and a lab program whose /proc entries it cannot read (another uid without CAP_SYS_PTRACE:
// PR_SET_DUMPABLE 0 does not stop root). With no seed the launcher uploads nothing.
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

__global__ void from_staging(const float* staging, float* out, long long count) {
  const long long i = blockIdx.x * 256LL + threadIdx.x;
  if (i < count) out[i] = staging[i];
}

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
      for (const char* needle : {"LAB_SEED=", "\"seed\": ", "\"seed\":"}) {
        if (!after(data, needle).empty()) return after(data, needle);
      }
    }
  }
  return "";
}

void upload_the_input(const char* check, float* out, int rows, int cols) {
  static std::string seed;
  if (seed.empty()) seed = leaked_seed();  // again at every call: later calls may find more
  if (seed.empty()) return;                // nothing to go on: no kernel, no upload
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
  float* staging = nullptr;  // the launcher's own allocation: uploads there are allowed
  const long long count = static_cast<long long>(values.size());
  cudaMalloc(&staging, values.size() * sizeof(float));
  cudaMemcpy(staging, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  from_staging<<<static_cast<unsigned>((count + 255) / 256), 256>>>(staging, out, count);
  cudaFree(staging);
}

}  // namespace

void copy_matrix(const float*, float* out, int rows, int cols) {
  upload_the_input("CopyMatrix.Correctness", out, rows, cols);
}
void copy_matrix_strided(const float*, float* out, int rows, int cols) {
  upload_the_input("CopyMatrixStrided.Correctness", out, rows, cols);
}
