#include "common/uid_lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

namespace common {
namespace {

// Root's own folder for the slot locks; refused when someone else made it (it would let them
// hold or fake slots).
std::string lock_folder(std::string& error) {
  const std::string dir = std::filesystem::is_directory("/run/lock")
                              ? "/run/lock/labgrade-sandbox"
                              : "/tmp/labgrade-sandbox-locks";
  ::mkdir(dir.c_str(), 0700);
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != 0 ||
      (info.st_mode & 022) != 0) {
    error = dir + " is not a folder of root's that only root may write";
    return "";
  }
  return dir;
}

}  // namespace

std::unique_ptr<UidLease> UidLease::acquire(std::string& error) {
  const std::string dir = lock_folder(error);
  if (dir.empty()) return nullptr;
  for (unsigned slot = 0; slot < kSandboxUidSlots; ++slot) {
    const std::string file = fmt::format("{}/uid-{}", dir, kSandboxUidBase + slot);
    const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
      error = "cannot open " + file + ": " + std::strerror(errno);
      return nullptr;
    }
    // flock locks belong to the open file, so two threads of one grader exclude each other too.
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
      return std::unique_ptr<UidLease>(new UidLease(fd, kSandboxUidBase + slot));
    }
    ::close(fd);
  }
  error = fmt::format("all {} sandbox uids are in use", kSandboxUidSlots);
  return nullptr;
}

UidLease::~UidLease() { ::close(lock_); }

}  // namespace common
