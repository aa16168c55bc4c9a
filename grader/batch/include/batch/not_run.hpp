// What a batch report says of a check with no record. The student of a batch cannot run the
// grader's checks themselves, so it never says "run ctest" (the report of a ctest run does): it
// says the check did not run and, where the batch knows it, why.
#pragma once

#include <string>

#include "batch/cache.hpp"

namespace batch {

// "did not run: link error (kernel.cu calls cublasSgemm_v2 (cuBLAS), ...)", "did not run: no
// kernel file", "did not run: the lab program left no record of it".
std::string not_run_reason(const GradedOutcome& outcome);

}  // namespace batch
