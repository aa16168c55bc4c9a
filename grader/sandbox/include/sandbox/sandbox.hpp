// Runs untrusted programs (a student's nvcc compile, a student's lab program) for batch grading,
// and, with a policy that contains nothing (no isolation, no resource limits, the caller's
// environment), the lab program of ctest's `labgrade run` on a student's own machine.
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
// bubblewrap is found through the environment variable LABGRADE_BWRAP (a path), else as `bwrap` in
// PATH. LABGRADE_CGROUP may name a cgroup v2 folder under which the per-run groups are made.
//
// Not contained: disk space in the writable binds (only the size of each file is capped), CPU
// share between parallel sandboxes, GPU memory and GPU time.
//
// run() and probe() may be called from several threads at once; they never throw.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sandbox {

// A host path made visible inside the sandbox at `inside` (an absolute path).
struct Bind {
  std::filesystem::path host;
  std::filesystem::path inside;
  bool writable = false;
};

struct Policy {
  // false: plain fork and exec, no namespaces (only when the instructor asks for it). The program
  // then sees host paths: see visible_path().
  bool isolate = true;
  // The only non-system paths visible inside, e.g. the scratch folder writable at /sandbox and the
  // grader's kit read-only at /kit.
  std::vector<Bind> binds;
  // The working folder inside; empty: / (isolated) or unchanged (not isolated).
  std::filesystem::path workdir;
  // When the grader is root: run as a uid of its own (200000 + slot), which is what lets
  // RLIMIT_NPROC cap its processes. false: stay root inside, with every capability dropped (for
  // trusted tools that misbehave under a uid without a name: nvcc 13 crashes so on some hosts).
  bool own_uid = true;
  // Bind the NVIDIA device nodes (/dev/nvidia*, /dev/nvidia-caps/*).
  bool gpu = false;
  double time_limit_s = 60;
  // Output kept (stdout and stderr together; the rest is read and dropped, and flagged), the bytes
  // the fd 4 channel may deliver, and the largest file the program may write (RLIMIT_FSIZE).
  std::uint64_t max_output_bytes = 4u << 20;
  // Host memory of the whole run, page cache and /tmp included (cgroup memory.max, no swap).
  std::uint64_t memory_bytes = 16ull << 30;
  // Processes and threads of the run (a fork bomb's cap).
  int max_processes = 256;
  // Size of the private /tmp (a tmpfs: it is memory, within memory_bytes).
  std::uint64_t tmp_bytes = 1ull << 30;
  // When not 0: a memory file of this size (sparse: memory only where it is written, within
  // memory_bytes) on fd 6, named by LABS_SHARED_MEMORY_FD=6. A lab program under the CPU emulation
  // shares its buffers with the student's launcher through it; made here, because
  // RLIMIT_FSIZE (max_output_bytes) would stop the program from sizing one itself.
  std::uint64_t shared_memory_bytes = 0;
  // When above 0: the program and everything it starts run at this niceness (setpriority; 19 is
  // the lowest priority), e.g. the batch's CPU-only emulated pass, which must not slow the runs
  // that are timed. Raising it needs no privilege.
  int nice = 0;
  // The environment is cleared; PATH (CUDA's bin first), HOME (the workdir), LANG=C.UTF-8 and
  // TMPDIR are set, then these (which may replace them).
  std::vector<std::pair<std::string, std::string>> env;

  // For a student's own machine (`labgrade run` under ctest), where the program is the student's
  // own build and nothing is being contained, only watched:
  // true: the program gets the grader's environment (CUDA_VISIBLE_DEVICES, LAB_SEED, ...) with
  // `env` on top, instead of a cleared one. Only without isolation (it would leak host paths in).
  bool inherit_environment = false;
  // false: no memory cgroup, no RLIMIT_NPROC and no RLIMIT_FSIZE; the time limit, should_stop and
  // the caps on what the grader keeps still apply. RLIMIT_NPROC counts every process of the user,
  // and a file size cap would stop the CUDA driver's cache, so a student's machine needs neither.
  bool resource_limits = true;
};

// Private pipes between the grader and the program, away from its stdout.
struct Channel {
  // If not empty: written to the program's fd 3, which is then closed (a secret it reads once),
  // unless more_input is set.
  std::string input;
  // If set: fd 3 stays open after `input`, and this is asked about every 10 ms for more to send
  // (empty: nothing yet).
  std::function<std::string()> more_input;
  // If set: seconds so far that do not count against the time limit (the program waited for the
  // grader, e.g. for its turn on the GPU).
  std::function<double()> uncounted_seconds;
  // If set: the program's fd 4 is a pipe; each complete line it writes (without the '\n') is
  // delivered here, up to max_output_bytes in all. An unfinished last line is not delivered.
  std::function<void(std::string_view line)> on_line;
  // If set: called about every 10 ms; returning a reason kills the run (Result::stopped).
  std::function<std::optional<std::string>()> should_stop;
  // If set: each piece of stdout and stderr as it is read, all of it (max_output_bytes caps only
  // what Result::output keeps), e.g. to show the output while the program runs.
  std::function<void(std::string_view piece)> on_output;
};

struct Result {
  int exit_code = -1;  // valid when not signalled, timed out, stopped or failed to start
  int signal = 0;      // the signal that ended it, 0 if none
  bool timed_out = false;
  bool stopped = false;  // by Channel::should_stop (or a callback that threw)
  std::string stop_reason;
  bool failed_to_start = false;  // the sandbox could not be set up; `output` says why
  bool out_of_memory = false;    // the memory cgroup's OOM killer ended it
  bool output_truncated = false;
  bool channel_truncated = false;  // fd 4 wrote more than max_output_bytes
  double seconds = 0;
  std::string output;  // stdout and stderr interleaved as written; bubblewrap's own errors too
  // The limits it ran under, for describe().
  double time_limit_s = 0;
  std::uint64_t memory_cap_bytes = 0;  // 0: memory was not capped
  std::uint64_t output_cap_bytes = 0;
};

// What this machine supports, in words for the instructor (and flags for tests and callers).
struct Capabilities {
  bool bubblewrap = false;  // an isolated `true` ran
  std::string bwrap_path;
  std::string why_not;  // when !bubblewrap
  bool memory_capped = false;
  std::string memory_cap;  // how, or "not capped: why"
  bool processes_capped = false;
  std::string process_cap;  // how, or "not capped: why"
};

// Finds bubblewrap and runs `true` in a sandbox, tries a per-run cgroup; takes about 0.1 s.
Capabilities probe();

// Runs argv[0] (a path, or a name looked up in the sandbox's PATH) under the policy. Never throws:
// anything that goes wrong before the program runs is failed_to_start, with a message in output.
Result run(const Policy& policy, const std::vector<std::string>& argv, const Channel& channel = {});

// "exit code 3", "killed by SIGSEGV (Segmentation fault)", "timed out after 60 s", "out of memory
// (cap 16 GiB)", "stopped: <reason>", "could not start: <first line of output>"; plus "; output
// cut at 4 MiB" when truncated.
std::string describe(const Result& result);

// Where a path inside the sandbox is on the host for a run under `policy`: `inside` itself when
// isolated, else the host path of the bind that holds it (to build argv for an unisolated run).
std::filesystem::path visible_path(const Policy& policy, const std::filesystem::path& inside);

}  // namespace sandbox
