#include "cgroup_parent.hpp"

#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "cgroup_layout.hpp"

namespace sandbox {
namespace fs = std::filesystem;
namespace {

bool writable(const fs::path& dir) { return ::access(dir.c_str(), W_OK) == 0; }

std::optional<CgroupParent> v2_parent(std::string& why_not) {
  const auto mount = find_cgroup_mount(read_text_file("/proc/self/mountinfo"));
  if (!mount) {
    why_not = "no cgroup2 file system is mounted";
    return std::nullopt;
  }
  std::vector<fs::path> candidates;
  if (const char* chosen = std::getenv("LABGRADE_CGROUP"); chosen && *chosen) {
    candidates.push_back(chosen);
  } else if (const auto group = own_cgroup(read_text_file("/proc/self/cgroup"))) {
    const fs::path own = cgroup_folder(*mount, *group);
    candidates.push_back(own);
    if (own != mount->mount_point) candidates.push_back(own.parent_path());
  }
  std::vector<std::string> seen;
  for (const auto& dir : candidates) {
    const std::string enabled = read_text_file(dir / "cgroup.subtree_control");
    if (list_has(enabled, "memory", ' ') && writable(dir)) {
      return CgroupParent{CgroupKind::v2, dir, list_has(enabled, "pids", ' '), ""};
    }
    seen.push_back(fmt::format("{} enables '{}' for its children{}", dir.string(),
                               enabled.empty() ? "" : enabled.substr(0, enabled.find('\n')),
                               writable(dir) ? "" : " and is not writable"));
  }
  why_not = "cgroup v2: no writable group enables the memory controller for its children (";
  for (std::size_t i = 0; i < seen.size(); ++i) why_not += (i ? "; " : "") + seen[i];
  why_not += ")";
  return std::nullopt;
}

std::optional<CgroupParent> v1_memory_parent(std::string& why_not) {
  const auto mount = find_cgroup_mount(read_text_file("/proc/self/mountinfo"), "memory");
  const auto group = own_cgroup(read_text_file("/proc/self/cgroup"), "memory");
  if (!mount || !group) {
    why_not += "; no cgroup v1 memory hierarchy either";
    return std::nullopt;
  }
  const fs::path dir = cgroup_folder(*mount, *group);
  std::error_code ec;
  if (!fs::exists(dir / "memory.limit_in_bytes", ec) || !writable(dir)) {
    why_not += "; the cgroup v1 memory group " + dir.string() + " is not writable";
    return std::nullopt;
  }
  return CgroupParent{CgroupKind::v1_memory, dir, false, ""};
}

}  // namespace

CgroupParent find_cgroup_parent() {
  std::string why_not;
  if (auto parent = v2_parent(why_not)) return *parent;
  if (auto parent = v1_memory_parent(why_not)) return *parent;
  return CgroupParent{CgroupKind::none, {}, false, why_not};
}

std::string describe_memory_cap(const CgroupParent& parent) {
  switch (parent.kind) {
    case CgroupKind::v2:
      return "cgroup v2 memory.max per run, swap off, under " + parent.dir.string();
    case CgroupKind::v1_memory:
      return "cgroup v1 memory.limit_in_bytes per run, swap off where accounted, under " +
             parent.dir.string();
    case CgroupKind::none:
      break;
  }
  return "not capped: " + parent.why_not;
}

}  // namespace sandbox
