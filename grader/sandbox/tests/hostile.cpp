// A hostile "student program" for the sandbox's tests: each mode tries one thing a sandbox must
// contain. Failures are reported as the exit code errno (so a test can tell EROFS from ENOENT);
// C-style, no C++ runtime needed inside the sandbox beyond libc.
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

int fail_with_errno(const char* what) {
  const int error = errno;
  fprintf(stderr, "%s: %s\n", what, strerror(error));
  return error > 0 && error < 126 ? error : 125;
}

int spin() {
  for (volatile unsigned long i = 0;; ++i) {
  }
}

int segv() {
  volatile int* nowhere = nullptr;
  *nowhere = 1;
  return 0;
}

int fork_bomb() {
  for (;;) fork();
}

// Prints the file (a secret must never come out).
int read_file(const char* path) {
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return fail_with_errno(path);
  char buffer[4096];
  ssize_t got;
  while ((got = read(fd, buffer, sizeof buffer)) > 0) fwrite(buffer, 1, got, stdout);
  return 0;
}

int write_file(const char* path) {
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return fail_with_errno(path);
  if (write(fd, "pwned\n", 6) != 6) return fail_with_errno("write");
  return close(fd) == 0 ? 0 : fail_with_errno("close");
}

int connect_to(const char* address, const char* port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return fail_with_errno("socket");
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<uint16_t>(atoi(port)));
  inet_pton(AF_INET, address, &to.sin_addr);
  if (connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof to) != 0)
    return fail_with_errno("connect");
  return 0;
}

// Writes `bytes` of 'x' to stdout, or to a file.
int write_bytes(long long bytes, int fd) {
  static char chunk[1 << 16];
  memset(chunk, 'x', sizeof chunk);
  while (bytes > 0) {
    const ssize_t n = write(fd, chunk, bytes < (long long)sizeof chunk ? bytes : sizeof chunk);
    if (n < 0) return fail_with_errno("write");
    bytes -= n;
  }
  return 0;
}

int big_file(const char* path, long long bytes) {
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return fail_with_errno(path);
  return write_bytes(bytes, fd);
}

int print_env(int count, char** names) {
  for (int i = 0; i < count; ++i) {
    const char* value = getenv(names[i]);
    printf("%s%s%s\n", names[i], value ? "=" : " unset", value ? value : "");
  }
  return 0;
}

// Reads fd 3 to its end, twice; reports both on fd 4, then an unfinished line.
int channel() {
  char secret[256];
  ssize_t total = 0, got;
  while ((got = read(3, secret + total, sizeof secret - 1 - total)) > 0) total += got;
  secret[total] = '\0';
  char again[16];
  const ssize_t second = read(3, again, sizeof again);
  dprintf(4, "got %s\n", secret);
  dprintf(4, "again %zd\n", second);
  dprintf(4, "unfinished");
  printf("done\n");
  return 0;
}

// Allocates and touches `bytes` of memory in 16 MiB pieces.
int hog(long long bytes) {
  const size_t piece = 16 << 20;
  for (long long done = 0; done < bytes; done += piece) {
    char* p = static_cast<char*>(malloc(piece));
    if (!p) return fail_with_errno("malloc");
    memset(p, 1, piece);
  }
  printf("survived\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const char* mode = argv[1];
  if (!strcmp(mode, "spin")) return spin();
  if (!strcmp(mode, "segv")) return segv();
  if (!strcmp(mode, "forkbomb")) return fork_bomb();
  if (!strcmp(mode, "read") && argc == 3) return read_file(argv[2]);
  if (!strcmp(mode, "write") && argc == 3) return write_file(argv[2]);
  if (!strcmp(mode, "connect") && argc == 4) return connect_to(argv[2], argv[3]);
  if (!strcmp(mode, "flood") && argc == 3) return write_bytes(atoll(argv[2]), 1);
  if (!strcmp(mode, "bigfile") && argc == 4) return big_file(argv[2], atoll(argv[3]));
  if (!strcmp(mode, "env")) return print_env(argc - 2, argv + 2);
  if (!strcmp(mode, "channel")) return channel();
  if (!strcmp(mode, "hog") && argc == 3) return hog(atoll(argv[2]));
  if (!strcmp(mode, "id")) return printf("uid %d\n", static_cast<int>(getuid())) < 0;
  if (!strcmp(mode, "caps")) {  // the effective capabilities, as /proc/self/status shows them
    FILE* status = fopen("/proc/self/status", "r");
    char line[256];
    while (status && fgets(line, sizeof line, status)) {
      if (!strncmp(line, "CapEff:", 7)) fputs(line, stdout);
    }
    return status ? 0 : 1;
  }
  return 2;
}
