// A thread the host refused the lab program (EAGAIN): the host's limit on tasks, held by other
// programs, or the submission's own processes at their cap. Only the first ends the program with
// contract::exit_status::host_refused (labgrade batch then grades the submission again).
#pragma once

#include <system_error>

namespace harness {

// Whether this program's own processes and threads (its launcher's with them: one uid, one PID
// namespace in the grader's sandbox) are near the cap the sandbox told it (common::
// kTaskCapVariable): then a thread refused with EAGAIN is the submission's doing (a fork bomb in
// its launcher), charged as usual, not the host's. False outside such a sandbox (ctest, a
// student's own run): there a refusal is the host's.
bool own_tasks_fill_the_cap();
bool tasks_fill_the_cap(long long tasks, long long cap);  // at 90% of the cap or more

// When `error` is the host refusing the lab program a thread or a process (EAGAIN, while its own
// tasks are far from their cap): says so on stderr and ends the program at once with
// exit_status::host_refused, recording nothing more, so that no check is charged with another
// program's load (labgrade batch grades the submission again). Otherwise returns.
void end_if_refused_by_host(const std::system_error& error);

}  // namespace harness
