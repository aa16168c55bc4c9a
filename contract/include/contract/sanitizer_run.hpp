// How labgrade batch runs a lab program under compute-sanitizer, and what the lab program says
// back, so that the grader and the harness spell it the same way.
//
// Two ways (grader/batch/sanitize_step.hpp):
//  - the pass: a second run of the lab program under a tool (LAB_SANITIZER=<tool>,
//    LAB_SANITIZER_CASES=first: each correctness check's first, smallest case);
//  - hosted memcheck: the graded correctness run itself runs under memcheck
//    (LAB_SANITIZER=memcheck-hosted). The harness then grades as usual, except that buffers have no
//    guard zones of their own (memcheck's padding sees past their ends instead) and a check with a
//    case too large for the sanitizer is left, whole, to a run without it: it records `skipped`
//    with a reason that begins with kLeftForPlainRun, and labgrade runs it again in the speed run.
#pragma once

#include <string_view>

namespace contract {

// LAB_SANITIZER's value for the hosted memcheck run.
inline constexpr std::string_view kHostedMemcheck = "memcheck-hosted";

// How the reason of a check left to the run without the sanitizer begins.
inline constexpr std::string_view kLeftForPlainRun = "left for the run without compute-sanitizer";

inline bool left_for_plain_run(std::string_view reason) {
  return reason.substr(0, kLeftForPlainRun.size()) == kLeftForPlainRun;
}

}  // namespace contract
