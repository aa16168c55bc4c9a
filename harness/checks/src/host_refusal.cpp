#include "harness/host_refusal.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "common/spawn.hpp"
#include "contract/exit_status.hpp"

namespace harness {

namespace {

// Tasks (threads) that /proc lists; 0 when it cannot be read.
long long tasks_in_proc() {
  long long tasks = 0;
  std::error_code error;
  for (std::filesystem::directory_iterator it("/proc", error), end; !error && it != end;
       it.increment(error)) {
    const auto name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ignored;
    for (std::filesystem::directory_iterator task(it->path() / "task", ignored), none;
         !ignored && task != none; task.increment(ignored)) {
      ++tasks;
    }
  }
  return tasks;
}

}  // namespace

bool tasks_fill_the_cap(long long tasks, long long cap) { return cap > 0 && tasks * 10 >= cap * 9; }

bool own_tasks_fill_the_cap() {
  // Told only by the grader's sandbox, where /proc is the run's own PID namespace; anywhere else
  // /proc is the host's and says nothing of the program's own tasks.
  const char* cap = std::getenv(common::kTaskCapVariable);
  if (!cap) return false;
  return tasks_fill_the_cap(tasks_in_proc(), std::atoll(cap));
}

void end_if_refused_by_host(const std::system_error& error) {
  if (error.code() != std::errc::resource_unavailable_try_again || own_tasks_fill_the_cap()) return;
  std::fflush(stdout);
  std::fprintf(stderr,
               "error: the host refused the lab program a thread or a process (%s): its limit on "
               "tasks was reached by other programs; nothing is charged to the submission, run "
               "it again\n",
               error.what());
  std::fflush(stderr);
  std::_Exit(contract::exit_status::host_refused);
}

}  // namespace harness
