// Why no group per run can be made under cgroup v2, and what makes one: the rules are the kernel's
// (Documentation/admin-guide/cgroup-v2.rst: "no internal process" and "delegation"), the fixes
// those of containers/README.md.
#include <fmt/format.h>

#include "cgroup_layout.hpp"
#include "diagnose.hpp"

namespace sandbox {
namespace {

constexpr std::string_view kEntrypoint =
    "run labgrade through labgrade-entrypoint (containers/labgrade-entrypoint.sh, the images' "
    "entrypoint), which moves this group's processes into a leaf and enables memory and pids for "
    "its children";

std::string shown(const std::string& list) { return list.empty() ? "nothing" : "'" + list + "'"; }

}  // namespace

std::optional<Diagnosis> diagnose_cgroup(const CgroupFacts& cgroup, const HostFacts& host) {
  if (!cgroup.v2_mounted) return std::nullopt;  // cgroup v1 only: its own words say enough
  const std::string own = cgroup.own.string();
  if (!cgroup.chosen.empty()) {
    return Diagnosis{
        fmt::format("LABGRADE_CGROUP={} {}", cgroup.chosen,
                    cgroup.own_writable ? fmt::format("enables {} for its children, not memory",
                                                      shown(cgroup.own_subtree))
                                        : std::string("is not writable by this user")),
        fmt::format("as that group's owner: echo '+memory +pids' > {}/cgroup.subtree_control "
                    "(the group must hold no process), or unset LABGRADE_CGROUP",
                    cgroup.chosen)};
  }
  const bool in_container = host.docker || host.podman;
  if (cgroup.read_only) {
    return Diagnosis{
        fmt::format(
            "the cgroup v2 file system at {} is mounted read-only{}", cgroup.mount_point.string(),
            in_container ? " (Docker and Podman do that for a container that is not --privileged)"
                         : ""),
        in_container ? fmt::format("start the container with {} and the image's entrypoint, "
                                   "which remounts it writable (containers/README.md)",
                                   kDockerSandboxFlags)
                     : std::string("mount it read-write, or set LABGRADE_CGROUP to a writable "
                                   "group that enables memory for its children")};
  }
  if (!list_has(cgroup.own_controllers, "memory", ' ')) {
    return Diagnosis{
        fmt::format("the memory controller is not delegated to the grader's group {} (its "
                    "cgroup.controllers: {})",
                    own, shown(cgroup.own_controllers)),
        "start labgrade in a group that has it: systemd-run --scope -p Delegate=yes (add --user "
        "when not root), then through labgrade-entrypoint; or set LABGRADE_CGROUP"};
  }
  if (!cgroup.own_writable && !cgroup.parent_writable) {
    return Diagnosis{
        fmt::format("no cgroup is delegated to uid {}: neither {} nor its parent is writable",
                    host.uid, own),
        "start labgrade under systemd-run --user --scope -p Delegate=yes, through "
        "labgrade-entrypoint (containers/README.md, \"Apptainer\"), or set LABGRADE_CGROUP to a "
        "group delegated to you"};
  }
  if (cgroup.own_writable && cgroup.own_is_hierarchy_root) {
    return Diagnosis{fmt::format("the root group {} enables {} for its children, not memory", own,
                                 shown(cgroup.own_subtree)),
                     fmt::format("as root: echo '+memory +pids' > {}/cgroup.subtree_control", own)};
  }
  if (cgroup.own_writable) {
    return Diagnosis{
        fmt::format("the grader's group {} holds processes, and cgroup v2 enables no controller "
                    "for the children of a group with processes ({}{})",
                    own, "its subtree_control: " + shown(cgroup.own_subtree),
                    cgroup.own_is_namespace_root
                        ? "; it is the top of this cgroup namespace"
                        : "; its parent enables " + shown(cgroup.parent_subtree)),
        std::string(kEntrypoint) + ", or set LABGRADE_CGROUP to a group that does"};
  }
  return std::nullopt;
}

}  // namespace sandbox
