// What the grader can read about the machine it runs on that decides whether bubblewrap and the
// per-run cgroups can work: seccomp, capabilities, AppArmor, the user-namespace switches, the
// container it may be in. Read from a root folder ("/" for real; tests pass a made-up one).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace sandbox {

struct HostFacts {
  bool root = false;           // the grader's effective uid is 0
  unsigned uid = 0;            // for the words
  int seccomp_mode = 0;        // /proc/self/status "Seccomp:": 0 none, 1 strict, 2 a filter
  bool cap_sys_admin = false;  // CAP_SYS_ADMIN in /proc/self/status "CapEff:"
  std::string apparmor_label;  // the grader's AppArmor profile, e.g. "docker-default (enforce)"
  // kernel.apparmor_restrict_unprivileged_userns (Ubuntu 23.10 and later: 1 by default)
  std::optional<int> restrict_unprivileged_userns;
  std::optional<int> unprivileged_userns_clone;  // kernel.unprivileged_userns_clone (Debian's)
  std::optional<long> max_user_namespaces;       // user.max_user_namespaces
  bool docker = false;     // /.dockerenv, or AppArmor's docker-default profile
  bool podman = false;     // /run/.containerenv
  bool apptainer = false;  // /.singularity.d (Apptainer and Singularity images)
};

HostFacts read_host_facts(const std::filesystem::path& root, unsigned euid);

}  // namespace sandbox
