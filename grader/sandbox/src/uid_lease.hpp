// An unprivileged uid of its own for each sandbox, when the grader runs as root: RLIMIT_NPROC
// counts the processes of a uid and does not apply to root, so a distinct uid per concurrent
// sandbox makes it a per-sandbox cap (a fork bomb in one cannot stop another's nvcc).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "unique_fd.hpp"

namespace sandbox {

inline constexpr unsigned kSandboxUidBase = 200000;
inline constexpr unsigned kSandboxUidSlots = 4096;

class UidLease {
 public:
  // The first free slot's uid (200000 + slot), held until the lease is destroyed. Slots are
  // lock files (flock), so concurrent graders on the machine never share one either. nullptr with
  // `error` set when none can be had.
  static std::unique_ptr<UidLease> acquire(std::string& error);
  unsigned uid() const { return uid_; }

 private:
  UidLease(UniqueFd lock, unsigned uid) : lock_(std::move(lock)), uid_(uid) {}
  UniqueFd lock_;
  unsigned uid_;
};

// Gives `root` and everything under it to uid:uid; symbolic links themselves, never their
// targets (a previous run may have planted links). "" on success, else why.
std::string chown_tree(const std::filesystem::path& root, unsigned uid);

// "" when a process of another uid, without groups, can read `path` (and search it when it is a
// folder), else why not.
std::string unreadable_by_others(const std::filesystem::path& path);

}  // namespace sandbox
