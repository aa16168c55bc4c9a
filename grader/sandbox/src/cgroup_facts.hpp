// The cgroup v2 facts that decide whether the grader can make a group per run: the mount, the
// grader's own group, what it and its parent enable for their children and who may write them.
// Read from a root folder ("/" for real; tests pass a made-up /proc and /sys tree).
#pragma once

#include <filesystem>
#include <string>

namespace sandbox {

struct CgroupFacts {
  std::string chosen;  // LABGRADE_CGROUP, when set
  bool v2_mounted = false;
  std::filesystem::path mount_point;
  bool read_only = false;              // mounted ro, as Docker and Podman do for a container
  std::filesystem::path own;           // the grader's group (its folder, under the root given)
  bool own_is_hierarchy_root = false;  // the host's real root group, not a namespace's
  bool own_is_namespace_root = false;  // the top of what the mount shows (a container's group)
  std::string own_controllers;         // cgroup.controllers: what its parent gives it
  std::string own_subtree;             // cgroup.subtree_control: what it enables for its children
  bool own_writable = false;
  std::string parent_subtree;
  bool parent_writable = false;
};

// chosen: LABGRADE_CGROUP's value, or "" when it is not set.
CgroupFacts read_cgroup_facts(const std::filesystem::path& root, const std::string& chosen);

}  // namespace sandbox
