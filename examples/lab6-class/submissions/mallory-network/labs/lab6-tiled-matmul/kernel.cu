// Sample (hostile): before main, tries the network: TCP to 1.1.1.1:80 and to 127.0.0.1 ports 22,
// 80 and 8080, and a DNS lookup of example.com. The sandbox has no network. Expected: graded, 0/100,
// and never "HOSTILE-NETWORK: succeeded".
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lab6.h"

namespace {

// Connects with a 3 s limit; returns "" on success, else why not.
const char* try_connect(const char* ip, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return strerror(errno);
  fcntl(fd, F_SETFL, O_NONBLOCK);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  inet_pton(AF_INET, ip, &addr.sin_addr);
  int rc = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  int err = rc == 0 ? 0 : errno;
  if (rc != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, 3000) == 1) {
      socklen_t len = sizeof err;
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    } else {
      err = ETIMEDOUT;
    }
  }
  close(fd);
  return err == 0 ? "" : strerror(err);
}

struct Network {
  Network() {
    const struct {
      const char* ip;
      int port;
    } targets[] = {{"1.1.1.1", 80}, {"127.0.0.1", 22}, {"127.0.0.1", 80}, {"127.0.0.1", 8080}};
    for (const auto& t : targets) {
      const char* why = try_connect(t.ip, t.port);
      if (!*why) {
        dprintf(1, "HOSTILE-NETWORK: succeeded: connected to %s:%d\n", t.ip, t.port);
      } else {
        dprintf(1, "HOSTILE-NETWORK: failed: %s:%d: %s\n", t.ip, t.port, why);
      }
    }
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    int rc = getaddrinfo("example.com", "80", &hints, &found);
    if (rc == 0 && found) {
      char text[INET6_ADDRSTRLEN] = "?";
      if (found->ai_family == AF_INET) {
        inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr, text,
                  sizeof text);
      }
      dprintf(1, "HOSTILE-NETWORK: succeeded: example.com resolves to %s\n", text);
      freeaddrinfo(found);
    } else {
      dprintf(1, "HOSTILE-NETWORK: failed: example.com: %s\n", gai_strerror(rc));
    }
  }
} network;

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
