#include "launcher/wire.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <vector>

namespace wire {
namespace {

using Clock = std::chrono::steady_clock;

bool write_all(int fd, const std::uint8_t* data, std::size_t size) {
  while (size > 0) {
    // MSG_NOSIGNAL: a peer that has gone is an error here, never a SIGPIPE that kills the writer.
    ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

// Reads exactly `size` bytes; "" on success, else why not.
std::string read_all(int fd, std::uint8_t* data, std::size_t size, int deadline_ms,
                     Clock::time_point start) {
  while (size > 0) {
    if (deadline_ms >= 0) {
      const auto spent =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      const int left = deadline_ms - static_cast<int>(spent);
      if (left <= 0) return "no answer in time";
      pollfd p{fd, POLLIN, 0};
      const int ready = ::poll(&p, 1, left);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) return "no answer in time";
      if (ready < 0) return "poll failed";
    }
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) return "the other side closed the connection";
    if (n < 0) return "read failed";
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return "";
}

}  // namespace

bool send(int fd, const nlohmann::json& message) {
  const std::vector<std::uint8_t> body = nlohmann::json::to_msgpack(message);
  if (body.size() > kMaxMessageBytes) return false;
  const std::uint32_t size = static_cast<std::uint32_t>(body.size());
  std::uint8_t header[4] = {static_cast<std::uint8_t>(size), static_cast<std::uint8_t>(size >> 8),
                            static_cast<std::uint8_t>(size >> 16),
                            static_cast<std::uint8_t>(size >> 24)};
  return write_all(fd, header, 4) && write_all(fd, body.data(), body.size());
}

std::optional<nlohmann::json> receive(int fd, int deadline_ms, std::string& error) {
  const auto start = Clock::now();
  std::uint8_t header[4];
  if (error = read_all(fd, header, 4, deadline_ms, start); !error.empty()) return std::nullopt;
  const std::uint32_t size = header[0] | (header[1] << 8) | (header[2] << 16) |
                             (static_cast<std::uint32_t>(header[3]) << 24);
  if (size > kMaxMessageBytes) {
    error = "a message of " + std::to_string(size) + " bytes is over the limit";
    return std::nullopt;
  }
  std::vector<std::uint8_t> body(size);
  if (error = read_all(fd, body.data(), size, deadline_ms, start); !error.empty()) {
    return std::nullopt;
  }
  auto message = nlohmann::json::from_msgpack(body, true, false);
  if (message.is_discarded()) {
    error = "a malformed message";
    return std::nullopt;
  }
  return message;
}

}  // namespace wire
