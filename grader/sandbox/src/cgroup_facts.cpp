#include "cgroup_facts.hpp"

#include <unistd.h>

#include <system_error>

#include "cgroup_layout.hpp"

namespace sandbox {
namespace fs = std::filesystem;
namespace {

// The first line, without its newline: the lists are one line each.
std::string line_of(const fs::path& file) {
  const std::string text = read_text_file(file);
  return text.substr(0, text.find('\n'));
}

bool group_writable(const fs::path& dir, bool read_only) {
  return !read_only && ::access(dir.c_str(), W_OK) == 0;
}

}  // namespace

CgroupFacts read_cgroup_facts(const fs::path& root, const std::string& chosen) {
  CgroupFacts facts;
  facts.chosen = chosen;
  const auto mount = find_cgroup_mount(read_text_file(root / "proc/self/mountinfo"));
  if (!mount) return facts;
  facts.v2_mounted = true;
  facts.mount_point = mount->mount_point;
  facts.read_only = mount->read_only;
  const auto group = own_cgroup(read_text_file(root / "proc/self/cgroup"));
  if (!group) return facts;
  const fs::path folder = chosen.empty() ? cgroup_folder(*mount, *group) : fs::path(chosen);
  facts.own = root / folder.relative_path();
  facts.own_is_namespace_root = folder == mount->mount_point;
  std::error_code ignored;
  // The real root has no cgroup.type (nor memory.max): the rule of no processes in a group with
  // controllers enabled for its children does not apply to it.
  facts.own_is_hierarchy_root = !fs::exists(facts.own / "cgroup.type", ignored);
  facts.own_controllers = line_of(facts.own / "cgroup.controllers");
  facts.own_subtree = line_of(facts.own / "cgroup.subtree_control");
  facts.own_writable = group_writable(facts.own, facts.read_only);
  if (!facts.own_is_namespace_root) {
    facts.parent_subtree = line_of(facts.own.parent_path() / "cgroup.subtree_control");
    facts.parent_writable = group_writable(facts.own.parent_path(), facts.read_only);
  }
  return facts;
}

}  // namespace sandbox
