#include "launcher_view.hpp"

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

namespace harness::student {
namespace {

// The new mount API's constants (linux/mount.h clashes with sys/mount.h on older C libraries).
constexpr unsigned kOpenTreeClone = 1;         // OPEN_TREE_CLONE
constexpr unsigned kMoveMountEmptyPath = 0x4;  // MOVE_MOUNT_F_EMPTY_PATH
constexpr unsigned kAtRecursive = 0x8000;      // AT_RECURSIVE
constexpr std::uint64_t kMountReadOnly = 0x1;  // MOUNT_ATTR_RDONLY
struct MountAttr {
  std::uint64_t set = 0;
  std::uint64_t clear = 0;
  std::uint64_t propagation = 0;
  std::uint64_t userns_fd = 0;
};

// Its private filesystems: small, since they are memory, and gone with its mount namespace.
constexpr const char* kTmpOptions = "mode=1777,size=64m";
constexpr const char* kDevOptions = "mode=0755,size=64k";

std::string failed(std::string_view what) {
  return fmt::format("{}: {}", what, std::strerror(errno));
}

// Every mount at and under `path` (relative to `dirfd`) read-only.
bool make_read_only(int dirfd, const char* path, unsigned flags) {
  MountAttr attr;
  attr.set = kMountReadOnly;
  return ::syscall(SYS_mount_setattr, dirfd, path, flags | kAtRecursive, &attr, sizeof attr) == 0;
}

// The folder right under /tmp that holds the launcher ("/tmp/build" for /tmp/build/labs/x): it
// stays in its private /tmp, so that a build folder's launcher (and what it loads from beside it)
// runs. "/tmp" for a launcher directly in /tmp, "" for one elsewhere.
std::string folder_under_tmp(const std::string& launcher) {
  std::error_code error;
  const std::string real = std::filesystem::canonical(launcher, error).string();
  if (error || real.rfind("/tmp/", 0) != 0) return "";
  const auto slash = real.find('/', 5);
  return slash == std::string::npos ? "/tmp" : real.substr(0, slash);
}

// A private /tmp, with the launcher's folder back in it read-only when it lives there: cloned
// (open_tree) before /tmp is covered, moved in after.
void private_tmp(const std::string& launcher, std::vector<std::string>& notes) {
  const std::string kept = folder_under_tmp(launcher);
  if (kept == "/tmp") {
    notes.push_back("its /tmp is the machine's, read-only: the launcher program lies in it");
    return;
  }
  int tree = -1;
  if (!kept.empty()) {
    tree = static_cast<int>(::syscall(SYS_open_tree, AT_FDCWD, kept.c_str(),
                                      kOpenTreeClone | kAtRecursive | O_CLOEXEC));
    if (tree < 0 || !make_read_only(tree, "", AT_EMPTY_PATH)) {
      notes.push_back(
          fmt::format("its /tmp is the machine's, read-only ({})", failed("cloning " + kept)));
      if (tree >= 0) ::close(tree);
      return;
    }
  }
  if (::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, kTmpOptions) != 0) {
    notes.push_back(fmt::format("its /tmp is the machine's, read-only ({})", failed("mount")));
  } else if (tree >= 0) {
    std::error_code error;
    std::filesystem::create_directories(kept, error);
    if (error ||
        ::syscall(SYS_move_mount, tree, "", AT_FDCWD, kept.c_str(), kMoveMountEmptyPath) != 0) {
      notes.push_back(fmt::format("the launcher's folder is missing from its /tmp ({})",
                                  failed("move_mount " + kept)));
    }
  }
  if (tree >= 0) ::close(tree);
}

// A /dev of its own as bubblewrap's --dev makes it: the harmless character devices, no GPU (so
// no GPU work of its own beside the timings), and a private /dev/shm.
void private_dev(std::vector<std::string>& notes) {
  if (::mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, kDevOptions) != 0) {
    notes.push_back(fmt::format("its /dev is the machine's, the GPU's device nodes among them ({})",
                                failed("mount")));
    return;
  }
  struct Node {
    const char* name;
    unsigned major;
    unsigned minor;
  };
  for (const auto& node : {Node{"null", 1, 3}, Node{"zero", 1, 5}, Node{"full", 1, 7},
                           Node{"random", 1, 8}, Node{"urandom", 1, 9}}) {
    const std::string path = fmt::format("/dev/{}", node.name);
    // chmod after: mknod's mode passes through the umask.
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(node.major, node.minor)) != 0 ||
        ::chmod(path.c_str(), 0666) != 0) {
      notes.push_back(fmt::format("its /dev lacks {} ({})", path, failed("mknod")));
    }
  }
  // The usual links; one missing would only inconvenience the launcher.
  for (const auto& [name, target] :
       {std::pair{"fd", "/proc/self/fd"}, std::pair{"stdin", "/proc/self/fd/0"},
        std::pair{"stdout", "/proc/self/fd/1"}, std::pair{"stderr", "/proc/self/fd/2"}}) {
    [[maybe_unused]] const int linked =
        ::symlinkat(target, AT_FDCWD, fmt::format("/dev/{}", name).c_str());
  }
  if (::mkdir("/dev/shm", 0755) != 0 ||
      ::mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, kTmpOptions) != 0) {
    notes.push_back(fmt::format("it has no /dev/shm ({})", failed("mount")));
  }
}

}  // namespace

std::vector<std::string> make_launcher_view(const std::string& launcher) {
  std::vector<std::string> notes;
  // The mounts private first, so that nothing made here shows in the machine's mount namespace.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    notes.push_back(fmt::format("the machine's /proc, /dev and /tmp stay in sight ({})",
                                failed("making / private")));
    return notes;
  }
  // Read-only first, so that the private filesystems mounted after stay writable. Its uid keeps
  // it from root's files already; this closes the world-writable ones (/var/tmp, ...).
  const bool read_only = make_read_only(AT_FDCWD, "/", 0);
  if (!read_only) {
    notes.push_back(fmt::format("the machine's world-writable folders stay writable to it ({})",
                                failed("mount_setattr")));
  }
  private_tmp(launcher, notes);
  private_dev(notes);
  // A /proc of this PID namespace: the lab program's /proc/<pid> (its command line, and for root
  // its environment, memory and descriptors) out of sight.
  if (::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
    notes.push_back(
        fmt::format("the machine's /proc stays in sight, the lab program's command "
                    "line among it ({})",
                    failed("mount")));
  }
  return notes;
}

void forget_command_line() {
  ::prctl(PR_SET_NAME, "launcher-init");
  // arg_start and arg_end are fields 48 and 49 of /proc/self/stat, counted from the pid; the
  // second (the name) may hold spaces, so fields are counted after its ')'.
  char text[4096];
  const int fd = ::open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  const ssize_t n = fd < 0 ? -1 : ::read(fd, text, sizeof text - 1);
  if (fd >= 0) ::close(fd);
  if (n <= 0) return;
  text[n] = '\0';
  char* after_name = std::strrchr(text, ')');
  if (after_name == nullptr) return;
  unsigned long long start = 0;
  unsigned long long end = 0;
  char* save = nullptr;
  int field = 2;
  for (char* word = ::strtok_r(after_name + 1, " ", &save); word != nullptr && field < 49;
       word = ::strtok_r(nullptr, " ", &save)) {
    ++field;
    if (field == 48) start = std::strtoull(word, nullptr, 10);
    if (field == 49) end = std::strtoull(word, nullptr, 10);
  }
  // This process's own copy of the lab program's stack (copied on write): the lab program keeps
  // its command line.
  if (start != 0 && end > start && end - start < (1ULL << 20)) {
    std::memset(reinterpret_cast<void*>(start), 0, end - start);
  }
}

}  // namespace harness::student
