// Names why the sandbox cannot work on this machine, and the fix, in one line each: from what
// bubblewrap said when it failed and from the facts of the host (host_facts.hpp, cgroup_facts.hpp).
// Pure functions: tests feed captured messages and made-up /proc trees. nullopt when the cause is
// not one the grader knows; the caller then shows bubblewrap's own words.
#pragma once

#include <optional>
#include <string_view>

#include "cgroup_facts.hpp"
#include "host_facts.hpp"
#include "sandbox/sandbox.hpp"

namespace sandbox {

// The docker run flags that let bubblewrap and the per-run cgroups work in a container, with the
// image's entrypoint (containers/README.md says why each).
inline constexpr std::string_view kDockerSandboxFlags =
    "--cap-add SYS_ADMIN --security-opt seccomp=unconfined --security-opt apparmor=unconfined "
    "--cgroupns=private";

// bwrap_output: what the failed isolated run printed (bubblewrap's "bwrap: ..." lines).
std::optional<Diagnosis> diagnose_bubblewrap(std::string_view bwrap_output, const HostFacts& host);

// Why no per-run cgroup can be made (find_cgroup_parent found none).
std::optional<Diagnosis> diagnose_cgroup(const CgroupFacts& cgroup, const HostFacts& host);

}  // namespace sandbox
