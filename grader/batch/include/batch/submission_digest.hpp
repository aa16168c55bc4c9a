// What identifies a submission's content for sharded grading: the plan records it, and a shard
// notes a submission that changed between the plan and its run.
#pragma once

#include <string>

#include "intake/intake.hpp"

namespace batch {

// A digest of everything graded (kernel and optional files) and of intake's verdict.
std::string submission_digest(const intake::Submission& submission);

}  // namespace batch
