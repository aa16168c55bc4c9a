// One run's cgroup: made with the run's caps, joined by the child before it execs, read for OOM
// kills afterwards, and emptied and removed when the run is over.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "cgroup_parent.hpp"

namespace sandbox {

class RunCgroup {
 public:
  // A new group under `parent` with memory capped (no swap) and, where the pids controller is
  // enabled, processes too. nullptr with `error` set when it cannot be made.
  static std::unique_ptr<RunCgroup> create(const CgroupParent& parent, std::uint64_t memory_bytes,
                                           int max_processes, std::string& error);
  RunCgroup(const RunCgroup&) = delete;
  RunCgroup& operator=(const RunCgroup&) = delete;
  // Kills what is left in it and removes it.
  ~RunCgroup();

  // The file a process writes its pid to, to join.
  const std::string& procs_file() const { return procs_file_; }
  bool caps_processes() const { return caps_processes_; }
  // Whether the OOM killer killed anything in it.
  bool oom_killed() const;
  // SIGKILL to everything in it, including what left the process group.
  void kill_all() const;

 private:
  RunCgroup(CgroupKind kind, std::filesystem::path dir);

  CgroupKind kind_;
  std::filesystem::path dir_;
  std::string procs_file_;
  bool caps_processes_ = false;
};

}  // namespace sandbox
