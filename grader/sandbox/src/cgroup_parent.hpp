// Where per-run cgroups can be made on this machine, found from /proc/self/cgroup and
// /proc/self/mountinfo.
//
// cgroup v2: a group with processes cannot enable controllers for its children, so ours (the
// grader is in it) usually cannot hold the per-run groups; its parent can when it already enables
// the memory controller for its children: the runs become our siblings. LABGRADE_CGROUP names the
// folder to use instead (a delegated subtree). cgroup v1 (hybrid systems): children of our own
// memory cgroup, which v1 allows.
#pragma once

#include <filesystem>
#include <string>

namespace sandbox {

enum class CgroupKind { none, v1_memory, v2 };

struct CgroupParent {
  CgroupKind kind = CgroupKind::none;
  std::filesystem::path dir;  // the per-run groups are made in it
  bool pids = false;          // v2: the pids controller is enabled for its children
  std::string why_not;        // kind == none
};

CgroupParent find_cgroup_parent();

// In words: "cgroup v2 memory.max per run, swap off, under /sys/fs/cgroup/x".
std::string describe_memory_cap(const CgroupParent& parent);

}  // namespace sandbox
