// The steps every run takes, contained or not (grader_sandbox_core): checking the policy, the
// program's environment, its pipes, starting it and watching it until it ends. sandbox::run
// (run.cpp, grader_sandbox) puts bubblewrap, a uid and a cgroup around them; run_unisolated
// (run_unisolated.cpp) nothing.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bwrap.hpp"
#include "common/spawn.hpp"
#include "sandbox/core.hpp"
#include "supervise.hpp"

namespace sandbox {

// Started by common::spawn (common/spawn.hpp), as the lab program starts its launcher.
using common::spawn;
using common::Spawned;
using common::SpawnSpec;

// The child's fds: 0 /dev/null, 1 and 2 the output pipe, 3 the input, 4 the line channel; 5 is
// bubblewrap's status (bubblewrap does not pass it on to the program); 6 the shared memory file.
constexpr int kInputFd = 3;
constexpr int kLinesFd = 4;
constexpr int kBwrapStatusFd = common::kBwrapStatusFd;
constexpr int kSharedMemoryFd = 6;

// Why the sandbox could not be set up; the message is the output of the failed run.
struct SetupError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string errno_text(const char* what);

// Throws SetupError for a policy or argv that cannot run.
void check_policy(const Policy& policy, const std::vector<std::string>& argv);

// The program's environment: its own (inherit_environment) or a clean one whose HOME is its
// working folder and TMPDIR a writable place.
std::vector<std::string> process_environment(const Policy& policy);

// The program itself as what `spec` starts, not isolated: argv[0] looked up in the PATH of
// spec.env when it has no '/', and the working folder on the host (visible_path).
void start_program_itself(const Policy& policy, const std::vector<std::string>& argv,
                          SpawnSpec& spec);

// Connects the child's pipes (and bubblewrap's status pipe when the policy isolates), starts
// `spec` and watches it until it ends. `kill_more` (may be empty) kills what killing the child's
// process group does not reach (a cgroup's other processes).
Supervised start_and_watch(const Policy& policy, const Channel& channel, SpawnSpec spec,
                           const std::function<void()>& kill_more);

// What the process's end says: exit code or signal, time, output; isolation reads bubblewrap's
// meaning of the exit code on top.
void read_process_end(const Supervised& watched, Result& result);

// Runs `body`, turning anything it throws into failed_to_start with the reason as the output.
Result run_guarded(const Policy& policy, const std::function<void(Result&)>& body);

}  // namespace sandbox
