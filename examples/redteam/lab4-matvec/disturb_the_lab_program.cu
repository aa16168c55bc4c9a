// must-fail: Matvec.Integers Matvec.Reals Matvec.Large Matvec.Examples Matvec.Threads Matvec.Speed
// redteam: signals and scheduling aimed at the lab program: SIGSTOP bursts, nice 19, one CPU, OOM
// isolation: signals and scheduling aimed at the lab program
//
// The launcher runs under the lab program's uid, so the kernel lets it act on its parent. At
// start-up it renices the lab program to 19, pins it to CPU 0 (sched_setaffinity), sets its
// oom_score_adj to 1000, and double-forks a daemon (setsid: out of the process group the lab
// program kills) that stops the lab program with SIGSTOP for 5 ms out of every 20 ms for up to a
// minute: a stalled host between the events of a timing inflates the reference's time as well as
// the student's, hoping for "inconclusive" instead of a failed speed check, or for a time-out
// charged to the wrong check. matvec itself computes nothing.
// Why it must fail: nothing here writes A, so every check fails on correctness before timing;
// still, the launcher should not be able to see or signal the lab program at all (a PID
// namespace, or another uid), nor outlive its call.
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "lab4.h"

namespace {

[[noreturn]] void stop_and_go(pid_t lab) {
  setsid();
  if (fork() != 0) _exit(0);
  for (int fd = 0; fd < 64; ++fd) close(fd);
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::minutes(1)) {
    if (kill(lab, SIGSTOP) != 0) break;  // gone
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(lab, SIGCONT);
    std::this_thread::sleep_for(std::chrono::milliseconds(15));
  }
  kill(lab, SIGCONT);
  _exit(0);
}

__attribute__((constructor)) void disturb() {
  const pid_t lab = getppid();
  setpriority(PRIO_PROCESS, static_cast<id_t>(lab), 19);
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  sched_setaffinity(lab, sizeof one, &one);
  std::ofstream("/proc/" + std::to_string(lab) + "/oom_score_adj") << "1000\n";
  const pid_t child = fork();
  if (child == 0) stop_and_go(lab);
  if (child > 0) waitpid(child, nullptr, 0);
}

}  // namespace

void matvec(float*, const float*, const float*, int) {}
