// Why bubblewrap could not make its sandbox, from its own words and the host's facts. Its messages
// (bubblewrap.c, 0.4 to 0.11): "No permissions to create[ a] new namespace" (or "to creating"),
// "Creating new namespace failed: ...", "setting up uid map: Permission denied", "loopback: Failed
// RTM_NEWADDR", "Failed to make / slave", "Can't mount proc on /newroot/proc".
#include <string>
#include <vector>

#include <fmt/format.h>

#include "diagnose.hpp"

namespace sandbox {
namespace {

bool bwrap_says(std::string_view text, std::string_view words) {
  return text.find(words) != std::string_view::npos;
}

// The first "bwrap: ..." line, cut short, as evidence at the end of the cause.
std::string bwrap_line(std::string_view output) {
  const auto start = output.find("bwrap: ");
  if (start == std::string_view::npos) return "";
  std::string_view line = output.substr(start);
  line = line.substr(0, line.find('\n'));
  if (line.size() > 160) return std::string(line.substr(0, 157)) + "...";
  return std::string(line);
}

std::string with_evidence(std::string cause, std::string_view output) {
  const std::string line = bwrap_line(output);
  if (!line.empty()) cause += " (" + line + ")";
  return cause;
}

struct Symptoms {
  bool userns_refused = false;  // no user namespace for a non-root user
  bool namespace_failed = false;
  bool uid_map = false;  // the namespace was made, but without its capabilities
  bool mount_refused = false;
  bool proc_refused = false;
  bool any() const { return userns_refused || namespace_failed || uid_map || mount_refused; }
};

Symptoms symptoms_of(std::string_view output) {
  Symptoms s;
  s.userns_refused = bwrap_says(output, "No permissions to creat");
  s.namespace_failed = bwrap_says(output, "Creating new namespace failed");
  s.uid_map = bwrap_says(output, "setting up uid map") ||
              bwrap_says(output, "setting up gid map") || bwrap_says(output, "RTM_NEWADDR");
  s.proc_refused = bwrap_says(output, "Can't mount proc");
  s.mount_refused = s.proc_refused || bwrap_says(output, "Failed to make / slave") ||
                    bwrap_says(output, "pivot_root") || bwrap_says(output, "Can't mount tmpfs") ||
                    bwrap_says(output, "Can't bind mount");
  return s;
}

std::string container_name(const HostFacts& host) {
  if (host.docker) return "Docker";
  if (host.podman) return "Podman";
  return "the container";
}

// Docker's (or Podman's) default confinement: a seccomp filter, root without CAP_SYS_ADMIN, the
// docker-default AppArmor profile. Each found is named.
std::optional<Diagnosis> container_confinement(std::string_view output, const HostFacts& host) {
  std::vector<std::string> found;
  if (host.seccomp_mode == 2) {
    found.push_back("a seccomp filter blocks new namespaces (Seccomp: 2)");
  }
  if (host.root && !host.cap_sys_admin) found.push_back("root has no CAP_SYS_ADMIN");
  if (host.apparmor_label.starts_with("docker-default")) {
    found.push_back("the AppArmor profile docker-default blocks mounts");
  }
  if (found.empty()) return std::nullopt;
  const bool in_container = host.docker || host.podman;
  std::string cause =
      in_container ? container_name(host) + "'s default confinement" : "this process's confinement";
  cause += " refuses what bubblewrap needs: ";
  for (std::size_t i = 0; i < found.size(); ++i) cause += (i ? "; " : "") + found[i];
  const std::string as_root =
      host.root ? "" : "run the grader as root in the container (the image's default) and ";
  return Diagnosis{
      with_evidence(cause, output),
      fmt::format("{}start the container with {} (or --privileged), as containers/README.md says",
                  as_root, kDockerSandboxFlags)};
}

}  // namespace

std::optional<Diagnosis> diagnose_bubblewrap(std::string_view output, const HostFacts& host) {
  const Symptoms seen = symptoms_of(output);
  if (!seen.any()) return std::nullopt;
  const std::string as_root =
      "run labgrade as root (sudo: bubblewrap then needs no user namespace, and each run gets a "
      "uid of its own)";
  if (!host.root && host.max_user_namespaces == 0) {
    return Diagnosis{
        with_evidence("user namespaces are switched off here (user.max_user_namespaces = 0)",
                      output),
        as_root + ", or allow them: sysctl -w user.max_user_namespaces=15000"};
  }
  // A seccomp filter refuses the namespace before anything else can: it is the first cause.
  if (host.seccomp_mode == 2 && (seen.userns_refused || seen.namespace_failed)) {
    return container_confinement(output, host);
  }
  if (!host.root && host.restrict_unprivileged_userns == 1) {
    return Diagnosis{
        with_evidence("Ubuntu's AppArmor restriction of unprivileged user namespaces "
                      "(kernel.apparmor_restrict_unprivileged_userns = 1) leaves bubblewrap "
                      "without the capabilities it needs",
                      output),
        as_root +
            ", or give /usr/bin/bwrap an AppArmor profile that allows userns "
            "(containers/README.md, \"Ubuntu 24.04\")"};
  }
  if (!host.root && host.unprivileged_userns_clone == 0 && seen.userns_refused) {
    return Diagnosis{with_evidence("unprivileged user namespaces are switched off here "
                                   "(kernel.unprivileged_userns_clone = 0)",
                                   output),
                     as_root + ", or allow them: sysctl -w kernel.unprivileged_userns_clone=1"};
  }
  if (!host.root && seen.proc_refused && (host.docker || host.podman)) {
    return Diagnosis{
        with_evidence(container_name(host) + " masks parts of /proc, so the kernel refuses "
                                             "bubblewrap a new /proc in a user namespace",
                      output),
        "run the grader as root in the container (the image's default: no user namespace is "
        "needed then), or add --security-opt systempaths=unconfined"};
  }
  return container_confinement(output, host);
}

}  // namespace sandbox
