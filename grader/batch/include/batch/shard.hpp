// Grading a class in shards, for clusters (scripts/slurm/): `plan` writes OUT/manifest.json (the
// submissions with their slugs and digests, the shards, the grader's fingerprint, the secret seed
// and the grading options); `run` grades one shard exactly as `labgrade batch` grades a class (same
// code, same seed, the reference solution first), writing each student's report and exports into
// OUT/students/ and the outcomes into OUT/shards/<index>/; `merge` makes the one gradebook (HTML,
// CSV) and JUnit XML from all shards, as a batch of the whole class would have. Shards may run on
// different machines at the same time: they share only OUT, each writing its own files.
#pragma once

#include <filesystem>
#include <vector>

#include "batch/batch.hpp"

namespace batch {

// Exit status: 0 planned (prints the number of shards on standard output, possibly fewer than
// asked when there are fewer submissions), 2 cannot plan (no kit, no submissions, bad options).
// Replaces an earlier plan and the shard results that went with it.
int plan_shards(const BatchOptions& options, int shards);

// `options` gives only what may differ between machines: gpus, jobs, labgrade_executable; the
// rest comes from the manifest. Exit status as run_batch's (1: some of the shard's submissions
// could not be graded, which the gradebook lists), and 2 when the grader (labgrade or the kit)
// differs from the one that made the plan.
int run_shard(const std::filesystem::path& out, int index, const BatchOptions& options);

// Exit status: 0 every submission graded, 1 some could not be graded (listed in the gradebook),
// 2 cannot merge (no manifest), 3 some shards have not finished (their submissions are listed as
// "not graded" with the command that grades them; run it, then merge again).
int merge_shards(const std::filesystem::path& out);

}  // namespace batch
