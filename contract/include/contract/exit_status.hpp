// The exit statuses of a lab program (harness/checks/src/lab_main.cpp), which labgrade reads
// (grader/batch/src/run_step.cpp: `labgrade run` for ctest and `labgrade batch` alike). ctest
// shows 77 as "skipped" (SKIP_RETURN_CODE 77 in cmake/AddLab.cmake, which cannot include this).
//
// What each status claims about the records the program sent (labgrade holds it to the claim):
//   pass       no check failed (pass, not_attempted, skipped or not_measured records only);
//   fail       at least one check failed (fail, error, inconclusive or not_run);
//   bad_setup  no check ran: bad arguments, a bad spec, or tests and spec that disagree;
//   skipped    nothing was judged: no GPU (every check skipped), or under the CPU emulation only
//              speed checks were selected (every check not measured);
//   host_refused  the host refused the lab program a thread or a process (EAGAIN) while its own
//              sandbox's tasks were far from their cap (harness/host_refusal.hpp: a fork bomb of
//              the submission's own is charged instead): what it recorded says nothing about the
//              submission; labgrade batch grades it again from the start. Only the lab program
//              (trusted) exits with it: the student's code runs in its launcher.
#pragma once

namespace contract::exit_status {

inline constexpr int pass = 0;
inline constexpr int fail = 1;
inline constexpr int bad_setup = 2;
inline constexpr int host_refused = 75;  // EX_TEMPFAIL
inline constexpr int skipped = 77;

}  // namespace contract::exit_status
