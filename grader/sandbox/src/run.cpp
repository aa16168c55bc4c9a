// run(): a run contained as its policy asks (bubblewrap's command, a uid, a cgroup, resource
// limits) around the steps every run takes (run_parts.hpp). Every failure before the program runs
// becomes failed_to_start.
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "bwrap.hpp"
#include "locate.hpp"
#include "run_cgroup.hpp"
#include "run_parts.hpp"
#include "sandbox/sandbox.hpp"
#include "uid_lease.hpp"

namespace sandbox {
namespace {

// The uid of the sandbox, when the grader is root and setpriv is there to switch to it; then the
// writable binds become that uid's and the read-only ones must be readable by it.
std::unique_ptr<UidLease> lease_uid(const Policy& policy, BwrapLaunch& launch) {
  if (::geteuid() != 0) return nullptr;
  const Located setpriv = locate_setpriv();
  if (setpriv.path.empty()) return nullptr;  // probe() says processes are not capped
  std::string error;
  auto lease = UidLease::acquire(error);
  if (!lease) throw SetupError("no sandbox uid: " + error);
  for (const auto& bind : policy.binds) {
    error = bind.writable ? chown_tree(bind.host, lease->uid()) : unreadable_by_others(bind.host);
    if (!error.empty()) throw SetupError(error);
  }
  launch.uid = lease->uid();
  launch.setpriv = setpriv.path;
  return lease;
}

std::unique_ptr<RunCgroup> make_cgroup(const Policy& policy) {
  const CgroupParent parent = find_cgroup_parent();
  if (parent.kind == CgroupKind::none) return nullptr;  // probe() says memory is not capped
  std::string error;
  auto group = RunCgroup::create(parent, policy.memory_bytes, policy.max_processes, error);
  if (!group) throw SetupError("cannot cap memory: " + error);
  return group;
}

// The process's end, then bubblewrap's meaning of its exit status when isolated, and the OOM.
void read_outcome(const Supervised& watched, bool isolated, const RunCgroup* group,
                  Result& result) {
  read_process_end(watched, result);
  const int status = watched.wait_status;
  if (isolated && WIFEXITED(status)) {
    result.exit_code = -1;
    if (!bwrap_started(watched.bwrap_status) && !watched.timed_out && !watched.stopped) {
      result.failed_to_start = true;
      result.output = "sandbox: bubblewrap could not set up the sandbox:\n" + result.output;
    } else {
      const ExitMeaning meaning = decode_bwrap_exit(WEXITSTATUS(status));
      result.exit_code = meaning.exit_code;
      result.signal = meaning.signal;
    }
  }
  result.out_of_memory = group && group->oom_killed();
}

// What starts the program: bubblewrap's command around it, or the program itself, with its limits.
SpawnSpec spawn_spec(const Policy& policy, const std::vector<std::string>& argv,
                     const BwrapLaunch& launch, bool leased_uid, const RunCgroup* group) {
  SpawnSpec spec;
  spec.env = process_environment(policy);
  // The run's cap on tasks, whichever holds it (RLIMIT_NPROC of its uid, pids.max or nothing for
  // root), to an isolated program, whose /proc is its own PID namespace's.
  if (policy.resource_limits && policy.isolate) {
    spec.env.push_back(std::string(common::kTaskCapVariable) + "=" +
                       std::to_string(policy.max_processes));
  }
  if (policy.resource_limits) spec.file_size_limit = policy.max_output_bytes;
  // RLIMIT_NPROC counts all processes of a uid: a cap per sandbox only with a uid per sandbox.
  // Without one, and without pids.max, it is still better than nothing for an ordinary user (it
  // does not apply to root).
  if (policy.resource_limits &&
      (leased_uid || (::geteuid() != 0 && !(group && group->caps_processes())))) {
    spec.process_limit = static_cast<std::uint64_t>(policy.max_processes);
  }
  if (group) spec.cgroup_procs = group->procs_file();
  spec.nice = policy.nice;
  if (policy.isolate) {
    spec.path = launch.bwrap;
    spec.argv = bwrap_command(launch, policy, scan_host(), argv);
  } else {
    start_program_itself(policy, argv, spec);
  }
  return spec;
}

void run_or_throw(const Policy& policy, const std::vector<std::string>& argv,
                  const Channel& channel, Result& result) {
  check_policy(policy, argv);
  const bool isolated = policy.isolate;
  BwrapLaunch launch;
  std::unique_ptr<UidLease> lease;
  if (isolated) {
    const Located bwrap = locate_bwrap();
    if (bwrap.path.empty()) throw SetupError(bwrap.why_not);
    launch.bwrap = bwrap.path;
    launch.status_fd = kBwrapStatusFd;
    if (policy.own_uid) lease = lease_uid(policy, launch);
    launch.root_without_caps = ::geteuid() == 0 && !launch.uid;
  }
  // After the lease: the group is emptied and removed before the uid goes to another sandbox.
  const std::unique_ptr<RunCgroup> group = policy.resource_limits ? make_cgroup(policy) : nullptr;
  SpawnSpec spec = spawn_spec(policy, argv, launch, lease != nullptr, group.get());
  const auto kill_group = [&] {
    if (group) group->kill_all();
  };
  const Supervised watched = start_and_watch(policy, channel, std::move(spec), kill_group);
  read_outcome(watched, isolated, group.get(), result);
  if (group) result.memory_cap_bytes = policy.memory_bytes;
}

}  // namespace

Result run(const Policy& policy, const std::vector<std::string>& argv, const Channel& channel) {
  return run_guarded(policy, [&](Result& result) { run_or_throw(policy, argv, channel, result); });
}

}  // namespace sandbox
