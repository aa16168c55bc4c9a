#include "cgroup_parent.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>

namespace sandbox {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool has_word(const std::string& list, std::string_view word, char separator) {
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, separator)) {
    if (!item.empty() && item.back() == '\n') item.pop_back();
    if (item == word) return true;
  }
  return false;
}

struct CgroupMount {
  fs::path mount_point;
  std::string root;  // the part of the hierarchy mounted there
};

// The cgroup2 mount, or the v1 mount whose super options name `v1_controller`.
std::optional<CgroupMount> find_mount(bool v2, std::string_view v1_controller) {
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    // id parent major:minor root mount-point options [optional...] - fstype source super-options
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point, word;
    fields >> id >> parent >> device >> root >> mount_point;
    while (fields >> word && word != "-") {
    }
    std::string fstype, source, super_options;
    fields >> fstype >> source >> super_options;
    if (v2 && fstype == "cgroup2") return CgroupMount{mount_point, root};
    if (!v2 && fstype == "cgroup" && has_word(super_options, v1_controller, ',')) {
      return CgroupMount{mount_point, root};
    }
  }
  return std::nullopt;
}

// Our group in the hierarchy of `controller` ("" for v2), from /proc/self/cgroup.
std::optional<std::string> own_group(std::string_view controller) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find(':');
    const auto second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controller.empty() ? (line.substr(0, first) == "0" && controllers.empty())
                           : has_word(controllers, controller, ',')) {
      return path;
    }
  }
  return std::nullopt;
}

fs::path folder_of(const CgroupMount& mount, std::string group) {
  if (mount.root != "/" && group.starts_with(mount.root)) group = group.substr(mount.root.size());
  return mount.mount_point / fs::path(group).relative_path();
}

bool writable(const fs::path& dir) { return ::access(dir.c_str(), W_OK) == 0; }

std::optional<CgroupParent> v2_parent(std::string& why_not) {
  const auto mount = find_mount(true, "");
  if (!mount) {
    why_not = "no cgroup2 file system is mounted";
    return std::nullopt;
  }
  std::vector<fs::path> candidates;
  if (const char* chosen = std::getenv("LABGRADE_CGROUP"); chosen && *chosen) {
    candidates.push_back(chosen);
  } else if (const auto group = own_group("")) {
    const fs::path own = folder_of(*mount, *group);
    candidates.push_back(own);
    if (own != mount->mount_point) candidates.push_back(own.parent_path());
  }
  std::vector<std::string> seen;
  for (const auto& dir : candidates) {
    const std::string enabled = read_text(dir / "cgroup.subtree_control");
    if (has_word(enabled, "memory", ' ') && writable(dir)) {
      return CgroupParent{CgroupKind::v2, dir, has_word(enabled, "pids", ' '), ""};
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
  const auto mount = find_mount(false, "memory");
  const auto group = own_group("memory");
  if (!mount || !group) {
    why_not += "; no cgroup v1 memory hierarchy either";
    return std::nullopt;
  }
  const fs::path dir = folder_of(*mount, *group);
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
