// Which checks each of a submission's runs carries (ProgramRuns,
// grader/batch/src/program_runs.hpp): the correctness run takes the checks that are not speed
// checks; the speed run takes the speed checks and the checks the hosted memcheck run left over
// (structure checks, products too large for memcheck), so that a submission starts one CUDA process
// fewer (the driver makes and ends every process's contexts under one lock for the whole host:
// docs/batch-grading-h100.md).
#pragma once

#include <string>
#include <vector>

#include "contract/record.hpp"
#include "contract/spec.hpp"

namespace batch {

// The ids of the spec's speed checks (`speed`) or of all its other checks, in spec order.
std::vector<std::string> checks_of_kind(const contract::LabSpec& spec, bool speed);

// The speed run's checks in spec order: the speed checks and the checks in `left`. Empty when the
// spec has no speed check: `left` then gets a shared run of its own, not the GPU alone.
std::vector<std::string> speed_run_checks(const contract::LabSpec& spec,
                                          const std::vector<std::string>& left);

// The speed checks of `records` (the speed run's, in the order it ran them) to run once more, in
// a process of their own: those after a failed check of `left` that failed without a measured
// time. A failure of a left check can end things for the checks after it in one process (a
// launcher that stopped answering, a kernel fault that left the GPU unusable, the hangs a process
// is allowed), which the speed checks did not share when the left checks had a run of their own;
// so those get the fresh process they had then. A speed check that was timed keeps its record
// (a second timing would be a second chance others do not get). Empty when no left check failed.
std::vector<std::string> speed_checks_to_run_again(
    const contract::LabSpec& spec, const std::vector<std::string>& left,
    const std::vector<contract::CheckRecord>& records);

}  // namespace batch
