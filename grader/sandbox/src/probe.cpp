#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "cgroup_parent.hpp"
#include "diagnose.hpp"
#include "locate.hpp"
#include "run_cgroup.hpp"
#include "sandbox/sandbox.hpp"
#include "uid_lease.hpp"

namespace sandbox {
namespace {

// Runs `true` the way every isolated run is set up (same uid switch, same cgroup).
void probe_bubblewrap(Capabilities& caps) {
  const Located bwrap = locate_bwrap();
  caps.bwrap_path = bwrap.path;
  if (bwrap.path.empty()) {
    caps.why_not = bwrap.why_not;
    return;
  }
  Policy policy;
  policy.time_limit_s = 10;
  policy.memory_bytes = 256ull << 20;
  policy.max_processes = 16;
  policy.max_output_bytes = 4 << 10;
  const Result result = run(policy, {"true"});
  if (!result.failed_to_start && !result.timed_out && result.signal == 0 && result.exit_code == 0) {
    caps.bubblewrap = true;
    return;
  }
  caps.why_not = fmt::format("{} does not work here ({}): {}", bwrap.path, describe(result),
                             result.output.substr(0, 500));
  caps.bubblewrap_diagnosis = diagnose_bubblewrap(result.output, read_host_facts("/", ::geteuid()));
}

// Makes (and removes) a group as a run would; returns whether it caps processes too.
bool probe_memory(Capabilities& caps) {
  const CgroupParent parent = find_cgroup_parent();
  std::string error = parent.why_not;
  if (parent.kind != CgroupKind::none) {
    if (const auto group = RunCgroup::create(parent, 64ull << 20, 16, error)) {
      caps.memory_capped = true;
      caps.memory_cap = describe_memory_cap(parent);
      return group->caps_processes();
    }
  }
  caps.memory_cap = "not capped: " + error;
  if (parent.kind == CgroupKind::none) {
    const char* chosen = std::getenv("LABGRADE_CGROUP");
    caps.memory_diagnosis = diagnose_cgroup(read_cgroup_facts("/", chosen ? chosen : ""),
                                            read_host_facts("/", ::geteuid()));
  }
  return false;
}

void probe_processes(Capabilities& caps, bool cgroup_pids) {
  const bool root = ::geteuid() == 0;
  const bool own_uids = root && !locate_setpriv().path.empty() && caps.bubblewrap;
  caps.processes_capped = cgroup_pids || own_uids;
  if (cgroup_pids && own_uids) {
    caps.process_cap = fmt::format(
        "cgroup pids.max per run, and a uid of its own per isolated sandbox ({} + slot)",
        kSandboxUidBase);
  } else if (cgroup_pids) {
    caps.process_cap = "cgroup pids.max per run";
  } else if (own_uids) {
    caps.process_cap = fmt::format(
        "RLIMIT_NPROC under a uid of its own per isolated sandbox ({} + slot, through setpriv); "
        "unisolated runs as root are not capped (RLIMIT_NPROC does not apply to root)",
        kSandboxUidBase);
  } else if (!root) {
    caps.process_cap = fmt::format(
        "not capped per sandbox: only RLIMIT_NPROC, which counts every process of uid {}, so a "
        "fork bomb in one sandbox can stop the others",
        ::geteuid());
  } else {
    caps.process_cap =
        "not capped: the grader runs as root, RLIMIT_NPROC does not apply to root, no cgroup "
        "enables the pids controller, and a uid per sandbox needs setpriv (util-linux) and "
        "bubblewrap";
  }
}

}  // namespace

Capabilities probe() {
  Capabilities caps;
  try {
    probe_bubblewrap(caps);
    probe_processes(caps, probe_memory(caps));
  } catch (const std::exception& e) {
    caps.why_not += std::string("; probe failed: ") + e.what();
  }
  return caps;
}

}  // namespace sandbox
