#include "bwrap.hpp"

#include <algorithm>
#include <set>

namespace sandbox {
namespace {

// Whether the path is (under) a system folder that the sandbox already has, or /tmp itself:
// bubblewrap cannot make folders in those read-only binds, and need not. Folders below /tmp are
// not there (the sandbox's /tmp is a fresh tmpfs) and must be made like any other parent.
bool host_provides(const HostLayout& host, const std::filesystem::path& path) {
  const auto under = [&](const std::filesystem::path& root) {
    const auto [end_root, end_path] =
        std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    return end_root == root.end();
  };
  if (path == "/tmp" || under("/proc") || under("/dev") || under("/sys")) return true;
  for (const auto& dir : host.system) {
    if (under(dir.path)) return true;
  }
  return false;
}

// The policy's binds. bubblewrap makes the missing parents of a bind mode 0700, which the
// sandbox's own uid cannot enter: make them first, readable by all (they hold nothing but the
// binds).
void add_binds(std::vector<std::string>& args, const Policy& policy, const HostLayout& host) {
  std::set<std::filesystem::path> parents;
  for (const auto& bind : policy.binds) {
    for (auto parent = bind.inside.parent_path(); parent != parent.root_path();
         parent = parent.parent_path()) {
      parents.insert(parent);
    }
  }
  for (const auto& parent : parents) {  // in order: a parent before its children
    if (host_provides(host, parent)) continue;
    args.insert(args.end(), {"--perms", "0755", "--dir", parent.string()});
  }
  for (const auto& bind : policy.binds) {
    args.insert(args.end(),
                {bind.writable ? "--bind" : "--ro-bind", bind.host.string(), bind.inside.string()});
  }
}

}  // namespace

std::vector<std::string> bwrap_command(const BwrapLaunch& launch, const Policy& policy,
                                       const HostLayout& host,
                                       const std::vector<std::string>& argv) {
  const bool root = launch.uid || launch.root_without_caps;
  std::vector<std::string> args = common::bwrap_start(
      {launch.bwrap, root ? common::BwrapNamespaces::all_but_user : common::BwrapNamespaces::all,
       std::nullopt, launch.status_fd});
  const auto add = [&args](std::initializer_list<std::string> more) {
    args.insert(args.end(), more.begin(), more.end());
  };

  for (const auto& dir : host.system) {
    if (dir.symlink_target.empty()) {
      add({"--ro-bind", dir.path, dir.path});
    } else {
      add({"--symlink", dir.symlink_target, dir.path});
    }
  }
  for (const auto& entry : host.etc) add({"--ro-bind", entry, entry});
  add({"--ro-bind", "/sys", "/sys"});
  common::add_own_proc_and_dev(args);
  // After --dev, which would hide them.
  if (policy.gpu) {
    for (const auto& node : host.gpu_nodes) add({"--dev-bind", node, node});
  }
  add({"--perms", "01777", "--size", std::to_string(policy.tmp_bytes), "--tmpfs", "/tmp"});
  add_binds(args, policy, host);
  add({"--chdir", policy.workdir.empty() ? std::string("/") : policy.workdir.string()});

  if (launch.root_without_caps) add({"--cap-drop", "ALL"});
  if (launch.uid) {
    // Only what setpriv needs to switch uid and drop the rest; it leaves none of them.
    add({"--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"});
  }
  std::vector<std::string> program;
  if (launch.uid) {
    const std::string id = std::to_string(*launch.uid);
    program = {launch.setpriv,
               "--reuid=" + id,
               "--regid=" + id,
               "--clear-groups",
               "--inh-caps=-all",
               "--bounding-set=-all",
               "--"};
  }
  program.insert(program.end(), argv.begin(), argv.end());
  common::finish_bwrap_command(args, program);
  return args;
}

}  // namespace sandbox
