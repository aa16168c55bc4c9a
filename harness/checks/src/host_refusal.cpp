#include "harness/host_refusal.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "contract/exit_status.hpp"

namespace harness {

bool own_tasks_fill_the_cap() {
  rlimit limit{};
  long long cap = kOwnTasksWithoutCap;
  if (::getrlimit(RLIMIT_NPROC, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    cap = std::min<long long>(cap, static_cast<long long>(limit.rlim_cur));
  }
  // In the batch's sandbox /proc is its own PID namespace's: the lab program and its launcher,
  // the only processes of the sandbox's uid.
  long long tasks = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const auto name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code ignored;
    for (auto it = std::filesystem::directory_iterator(entry.path() / "task", ignored);
         !ignored && it != std::filesystem::directory_iterator(); it.increment(ignored)) {
      ++tasks;
    }
  }
  return tasks * 10 >= cap * 9;
}

void end_refused_by_host(const std::exception& error) {
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
