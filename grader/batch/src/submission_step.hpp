// The submission step: one kernel built in the sandbox, its correctness checks run with the GPU
// shared (then, on a GPU kit, the sanitizer pass), its speed checks with the GPU alone; then its
// records verified against the reference's and the outcome kept in the result cache.
#pragma once

#include <filesystem>
#include <string>

#include "batch/cache.hpp"
#include "batch_state.hpp"
#include "intake/intake.hpp"

namespace batch {

// What a submission builds from: its kernel.cu and optional files.
Sources sources_of(const intake::Submission& submission);

// The text the result cache keys on: the kernel alone when there is nothing else, so results
// cached before optional files existed stay valid.
std::string cache_text(const Sources& sources);

// Makes `scratch` a fresh folder holding the sources.
void prepare_scratch(const std::filesystem::path& scratch, const Sources& sources);

// Builds and runs one kernel; no verification (the reference run uses it as is).
GradedOutcome build_and_run(BatchState& batch, const std::string& slug, const Sources& sources);

// A submission from intake to its outcome: refused by intake, found in the cache, or built, run,
// verified against the reference and cached.
GradedOutcome grade_submission(BatchState& batch, const intake::Submission& submission);

}  // namespace batch
