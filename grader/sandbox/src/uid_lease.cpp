#include "uid_lease.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "sandbox/sandbox.hpp"

namespace sandbox {
namespace fs = std::filesystem;
namespace {

std::string chown_one(const fs::path& path, unsigned uid) {
  if (::fchownat(AT_FDCWD, path.c_str(), uid, uid, AT_SYMLINK_NOFOLLOW) == 0) return "";
  return fmt::format("cannot give {} to uid {}: {}", path.string(), uid, std::strerror(errno));
}

}  // namespace

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

bool every_uid_can_run(const fs::path& program) {
  std::error_code error;
  const fs::path real = fs::canonical(program, error);
  if (error || !unreadable_by_others(real).empty()) return false;
  for (fs::path above = real.parent_path(); !above.empty(); above = above.parent_path()) {
    if (!unreadable_by_others(above).empty()) return false;
    if (above == above.root_path()) break;
  }
  fs::path folder = real.parent_path();
  if (folder.filename() == "bin") {
    folder = folder.parent_path() / "compute-sanitizer";
    if (!fs::is_directory(folder, error)) return false;
  }
  constexpr int kMostEntries = 5000;
  int seen = 0;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (++seen > kMostEntries || !unreadable_by_others(it->path()).empty()) return false;
  }
  return !error;
}

}  // namespace sandbox
