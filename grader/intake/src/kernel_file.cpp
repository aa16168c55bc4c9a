#include "kernel_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "common/utf8.hpp"
#include "wording.hpp"

namespace fs = std::filesystem;

namespace intake {
namespace {

// Closes a file descriptor on every way out.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    std::swap(fd_, other.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

KernelFile refused(std::string problem) { return {"", std::move(problem)}; }

std::string too_large(const std::string& name, std::uint64_t size, const Limits& limits) {
  return fmt::format("{} is too large: {}, more than the {} limit", name, wording::bytes(size),
                     wording::bytes(limits.max_kernel_bytes));
}

// The offset of the first byte that makes `text` not text: a NUL or invalid UTF-8.
std::optional<std::size_t> first_binary_byte(std::string_view text) {
  std::optional<std::size_t> at = common::utf8::first_invalid(text);
  const std::size_t nul = text.find('\0');
  if (nul != std::string_view::npos && (!at || nul < *at)) at = nul;
  return at;
}

}  // namespace

KernelFile read_kernel(const fs::path& root, const fs::path& relative, const Limits& limits) {
  const std::string name = wording::one_line(relative.filename().string(), 100);

  // Open folder by folder with O_NOFOLLOW: a link anywhere on the way fails instead of leading
  // out of the submission.
  Fd dir(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir.get() < 0) return refused(fmt::format("cannot open the submission: {}", strerror(errno)));
  const fs::path folders = relative.parent_path();
  for (const fs::path& part : folders) {
    Fd next(::openat(dir.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (next.get() < 0) {
      return refused(fmt::format("cannot open the folder {} of {}: {}",
                                 wording::quoted(part.string()), name, strerror(errno)));
    }
    dir = std::move(next);
  }

  // Look before opening: opening a device or a FIFO can block or have effects of its own.
  struct stat info {};
  if (::fstatat(dir.get(), relative.filename().c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
    return refused(fmt::format("cannot read {}: {}", name, strerror(errno)));
  }
  if (S_ISLNK(info.st_mode)) return refused(fmt::format("{} is a symbolic link", name));
  if (!S_ISREG(info.st_mode)) return refused(fmt::format("{} is not a regular file", name));

  Fd file(::openat(dir.get(), relative.filename().c_str(),
                   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) {
    if (errno == ELOOP) return refused(fmt::format("{} is a symbolic link", name));
    return refused(fmt::format("cannot read {}: {}", name, strerror(errno)));
  }
  // Checked again on what was opened, in case the file was swapped since the look.
  if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode)) {
    return refused(fmt::format("{} is not a regular file", name));
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > limits.max_kernel_bytes) return refused(too_large(name, size, limits));

  // Read to the end, not to the size seen: a file that grew since fstat is still caught.
  std::string text;
  std::size_t length = 0;
  while (length <= limits.max_kernel_bytes) {
    text.resize(length + 64 * 1024);
    const ssize_t count = ::read(file.get(), text.data() + length, text.size() - length);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return refused(fmt::format("cannot read {}: {}", name, strerror(errno)));
    if (count == 0) break;
    length += static_cast<std::size_t>(count);
  }
  text.resize(length);
  if (length > limits.max_kernel_bytes) return refused(too_large(name, length, limits));
  if (length == 0) return refused(fmt::format("{} is empty", name));
  if (const auto at = first_binary_byte(text)) {
    return refused(fmt::format("{} is not a text file (binary byte at offset {})", name, *at));
  }
  return {std::move(text), ""};
}

}  // namespace intake
