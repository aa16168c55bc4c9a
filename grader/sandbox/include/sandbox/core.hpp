// The sandbox's vocabulary (a policy, a private channel, how a run ended) and the run that contains
// nothing: the program is started and watched (time limit, output kept, channel, should_stop),
// with no isolation and no resource limits. That is all a student's machine needs (labcheck,
// ctest's `labcheck run`): this part is the library grader_sandbox_core. The isolation (bubblewrap,
// a cgroup, a uid per run) and the resource limits are sandbox::run in sandbox/sandbox.hpp, the
// library grader_sandbox, which only labgrade links.
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
  int max_processes = 256;  // an isolated program sees it as common::kTaskCapVariable
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

// "exit code 3", "killed by SIGSEGV (Segmentation fault)", "timed out after 60 s", "out of memory
// (cap 16 GiB)", "stopped: <reason>", "could not start: <first line of output>"; plus "; output
// cut at 4 MiB" when truncated.
std::string describe(const Result& result);

// Where a path inside the sandbox is on the host for a run under `policy`: `inside` itself when
// isolated, else the host path of the bind that holds it (to build argv for an unisolated run).
std::filesystem::path visible_path(const Policy& policy, const std::filesystem::path& inside);

// Runs argv[0] (a path, or a name looked up in the policy's PATH) with nothing contained: only for
// a policy with isolate and resource_limits both false (anything else is failed_to_start, saying
// that the run needs labgrade's sandbox). Never throws; may be called from several threads.
Result run_unisolated(const Policy& policy, const std::vector<std::string>& argv,
                      const Channel& channel = {});

// What starts a program: run_unisolated, or sandbox::run (grader_sandbox) for batch grading.
using Runner = Result (*)(const Policy& policy, const std::vector<std::string>& argv,
                          const Channel& channel);

}  // namespace sandbox
