// Where the cgroup hierarchies are and which group a process is in, parsed from the texts of
// /proc/self/mountinfo and /proc/self/cgroup: pure functions, so that the choice of a parent for
// the per-run groups (cgroup_parent.cpp) and the words for a host without one (diagnose_cgroup.cpp)
// read the same facts, and tests can feed made-up texts.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace sandbox {

struct CgroupMount {
  std::filesystem::path mount_point;
  std::string root;        // the part of the hierarchy mounted there
  bool read_only = false;  // the mount's own options say ro (a container's default for cgroup2)
};

// The cgroup2 mount (v1_controller empty), or the v1 mount whose super options name v1_controller.
std::optional<CgroupMount> find_cgroup_mount(std::string_view mountinfo,
                                             std::string_view v1_controller = {});

// The process's group in the hierarchy of `controller` ("" for v2), from /proc/self/cgroup's text.
std::optional<std::string> own_cgroup(std::string_view proc_self_cgroup,
                                      std::string_view controller = {});

// The folder of `group` under the mount (a group outside the mounted part stays under it as is).
std::filesystem::path cgroup_folder(const CgroupMount& mount, std::string group);

// Whether a space- or comma-separated list (cgroup.controllers, super options) holds `word`.
bool list_has(std::string_view list, std::string_view word, char separator);

// The whole text of a file, "" when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace sandbox
