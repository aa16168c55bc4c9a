#include "uid_lease.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

namespace sandbox {
namespace fs = std::filesystem;
namespace {

// Root's own folder for the slot locks; refused when someone else made it (it would let them
// hold or fake slots).
std::string lock_folder(std::string& error) {
  const std::string dir =
      fs::is_directory("/run/lock") ? "/run/lock/labgrade-sandbox" : "/tmp/labgrade-sandbox-locks";
  ::mkdir(dir.c_str(), 0700);
  struct stat info {};
  if (::lstat(dir.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != 0 ||
      (info.st_mode & 022) != 0) {
    error = dir + " is not a folder of root's that only root may write";
    return "";
  }
  return dir;
}

std::string chown_one(const fs::path& path, unsigned uid) {
  if (::fchownat(AT_FDCWD, path.c_str(), uid, uid, AT_SYMLINK_NOFOLLOW) == 0) return "";
  return fmt::format("cannot give {} to uid {}: {}", path.string(), uid, std::strerror(errno));
}

}  // namespace

std::unique_ptr<UidLease> UidLease::acquire(std::string& error) {
  const std::string dir = lock_folder(error);
  if (dir.empty()) return nullptr;
  for (unsigned slot = 0; slot < kSandboxUidSlots; ++slot) {
    const std::string file = fmt::format("{}/uid-{}", dir, kSandboxUidBase + slot);
    UniqueFd fd(::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
    if (!fd) {
      error = "cannot open " + file + ": " + std::strerror(errno);
      return nullptr;
    }
    // flock locks belong to the open file, so two threads of one grader exclude each other too.
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) {
      return std::unique_ptr<UidLease>(new UidLease(std::move(fd), kSandboxUidBase + slot));
    }
  }
  error = fmt::format("all {} sandbox uids are in use", kSandboxUidSlots);
  return nullptr;
}

std::string chown_tree(const fs::path& root, unsigned uid) {
  if (auto error = chown_one(root, uid); !error.empty()) return error;
  std::error_code ec;
  fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (auto error = chown_one(it->path(), uid); !error.empty()) return error;
  }
  if (ec) return "cannot walk " + root.string() + ": " + ec.message();
  return "";
}

std::string unreadable_by_others(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    return fmt::format("{}: {}", path.string(), std::strerror(errno));
  }
  const bool folder = S_ISDIR(info.st_mode);
  const mode_t needed = folder ? (S_IROTH | S_IXOTH) : S_IROTH;
  if ((info.st_mode & needed) == needed) return "";
  return fmt::format(
      "{} (mode {:o}) cannot be read by others, and the sandbox runs as an "
      "unprivileged uid ({} it)",
      path.string(), info.st_mode & 07777, folder ? "chmod -R o+rX" : "chmod o+r");
}

}  // namespace sandbox
