// Runs untrusted programs (a student's nvcc compile, a student's lab program) for batch grading:
// the library grader_sandbox, which only labgrade links. It builds on grader_sandbox_core
// (sandbox/core.hpp: the policy, the channel, the result, and run_unisolated, which is all that a
// student's machine needs and runs a policy that contains nothing the same way run() does).
//
// With isolation (the default) the program runs under bubblewrap: no network (its own network
// namespace), its own pid, ipc and uts namespaces, a fresh /proc, a minimal /dev (plus the NVIDIA
// device nodes when asked), /sys read-only, the system folders read-only (/usr, hence CUDA in
// /usr/local; /bin, /lib, /lib64, /sbin as they exist; from /etc only what the dynamic loader and
// the compilers read), a private /tmp, and the binds of the policy. Nothing else of the host is
// visible: not the instructor's tree, not other submissions, not the output folder.
//
// Limits, isolated or not: wall-clock time (everything the program started is killed with it),
// output kept (stdout and stderr together, the head kept), the largest file it may write
// (RLIMIT_FSIZE), no core files, memory (a cgroup per run; never RLIMIT_AS, which makes cuInit
// fail) and the number of processes (a cgroup's pids.max, or a distinct unprivileged uid per
// sandbox with RLIMIT_NPROC when the grader runs as root). probe() says which caps work on this
// machine and how.
//
// When the grader runs as root, an isolated program runs as uid/gid 200000 + slot (a slot per
// concurrent sandbox), with no capabilities: the writable binds are chowned to that uid before the
// run, and the read-only binds must be readable by others (mode o+r, o+x for folders), or the run
// does not start.
//
// bubblewrap is found by the rule the lab program's launcher also follows (common/bwrap.hpp): the
// environment variable LABGRADE_BWRAP (a path) when set, else `bwrap` in PATH, else
// /usr/bin/bwrap, /usr/local/bin/bwrap or /bin/bwrap. LABGRADE_CGROUP may name a cgroup v2 folder
// under which the per-run groups are made.
//
// Not contained: disk space in the writable binds (only the size of each file is capped), CPU
// share between parallel sandboxes, GPU memory and GPU time.
//
// run() and probe() may be called from several threads at once; they never throw.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sandbox/core.hpp"

namespace sandbox {

// Why a part of the sandbox cannot work on this machine, where the grader recognises the cause
// (Docker's confinement, Ubuntu's user-namespace restriction, a cgroup not delegated): one line
// each, for the instructor.
struct Diagnosis {
  std::string cause;
  std::string fix;
};

// What this machine supports, in words for the instructor (and flags for tests and callers).
struct Capabilities {
  bool bubblewrap = false;  // an isolated `true` ran
  std::string bwrap_path;
  std::string why_not;  // when !bubblewrap
  // When !bubblewrap and the cause is one the grader knows: what to tell the instructor.
  std::optional<Diagnosis> bubblewrap_diagnosis;
  bool memory_capped = false;
  std::string memory_cap;  // how, or "not capped: why"
  // When !memory_capped and the cause is one the grader knows.
  std::optional<Diagnosis> memory_diagnosis;
  bool processes_capped = false;
  std::string process_cap;  // how, or "not capped: why"
};

// Finds bubblewrap and runs `true` in a sandbox, tries a per-run cgroup; takes about 0.1 s. What
// fails is diagnosed from bubblewrap's words and from /proc (diagnose.hpp).
Capabilities probe();

// Runs argv[0] (a path, or a name looked up in the sandbox's PATH) under the policy. Never throws:
// anything that goes wrong before the program runs is failed_to_start, with a message in output.
Result run(const Policy& policy, const std::vector<std::string>& argv, const Channel& channel = {});

// Whether a sandbox's uid of its own (any uid) can run `program`: it, every folder above it (after
// links) and every file under its folder, which holds a tool's libraries (compute-sanitizer's),
// pass the sandbox's read-only bind rule (readable by others; folders also enterable). From a
// toolkit's bin folder, the compute-sanitizer folder beside it is that folder; a program in any
// other bin folder (a wrapper pointing where this cannot see) is not known to be runnable: false.
// Mode bits, not access(): the grader is root, whom access() lets through everything.
bool every_uid_can_run(const std::filesystem::path& program);

}  // namespace sandbox
