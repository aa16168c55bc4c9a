// An unprivileged uid of its own for each sandbox, when the grader (or a lab program) runs as
// root: RLIMIT_NPROC counts the processes of a uid and does not apply to root, so a distinct uid
// per concurrent sandbox makes it a per-sandbox cap (a fork bomb in one cannot stop another's
// nvcc), and a uid that nothing else runs as can have all of its processes killed at the end.
// labgrade's sandbox (grader/sandbox) and the lab program's launcher without bubblewrap
// (harness/runtime/src/student/launcher_process.cpp) take their uids from the same slots, so they
// never share one either.
#pragma once

#include <memory>
#include <string>

namespace common {

inline constexpr unsigned kSandboxUidBase = 200000;
inline constexpr unsigned kSandboxUidSlots = 4096;

class UidLease {
 public:
  // The first free slot's uid (200000 + slot), held until the lease is destroyed. Slots are
  // lock files (flock), so concurrent graders on the machine never share one either. nullptr with
  // `error` set when none can be had (only root may take one).
  static std::unique_ptr<UidLease> acquire(std::string& error);
  unsigned uid() const { return uid_; }
  ~UidLease();
  UidLease(const UidLease&) = delete;
  UidLease& operator=(const UidLease&) = delete;

 private:
  UidLease(int lock, unsigned uid) : lock_(lock), uid_(uid) {}
  int lock_;
  unsigned uid_;
};

}  // namespace common
