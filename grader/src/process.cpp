#include "process.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

namespace grader {

ProcessOutcome run_process(const std::vector<std::string>& argv, double timeout_s) {
  ProcessOutcome outcome;
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.failed_to_start = true;
    return outcome;
  }
  if (pid == 0) {
    setpgid(0, 0);
    execv(args[0], args.data());
    std::fprintf(stderr, "labgrade: cannot start %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);  // also here, so the group exists before we might have to kill it

  int status = 0;
  const auto deadline = start + std::chrono::duration<double>(timeout_s);
  while (true) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      outcome.failed_to_start = true;
      return outcome;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      outcome.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Whatever the check started (a helper process) ends with it.
  kill(-pid, SIGKILL);
  outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outcome.timed_out) {
    if (WIFEXITED(status)) outcome.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  }
  return outcome;
}

std::string describe(const ProcessOutcome& outcome, double timeout_s) {
  if (outcome.failed_to_start) return "could not be started";
  if (outcome.timed_out) return fmt::format("timed out after {} s", timeout_s);
  if (outcome.signal) {
    const char* name = sigabbrev_np(outcome.signal);
    return fmt::format("ended by signal SIG{} ({})", name ? name : "?", strsignal(outcome.signal));
  }
  return fmt::format("exit code {}", outcome.exit_code);
}

}  // namespace grader
