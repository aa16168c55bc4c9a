// The batch options that decide grades (time limits, memory, the sandbox, the reference run), as
// a shard plan keeps them: fixed by the plan, so every shard grades alike. The one list of them
// is in grading_options.cpp; anything else a node may choose for itself (gpus, jobs).
#pragma once

#include <nlohmann/json.hpp>

#include "batch/batch.hpp"

namespace batch {

// {"max_check_seconds": ..., "build_seconds": ..., ...}
nlohmann::json grading_options_json(const BatchOptions& options);

// Sets the grading options of `options` from `saved` (grading_options_json's); throws
// nlohmann::json's errors when one is missing or of another type.
void apply_grading_options(const nlohmann::json& saved, BatchOptions& options);

}  // namespace batch
