// The exit statuses of labgrade's own batch and shard commands (labgrade batch, shard plan|run|
// merge), for the instructor's scripts and Slurm. Not the lab program's statuses, which are the
// contract's (contract/exit_status.hpp).
#pragma once

namespace batch::command_exit {

inline constexpr int ok = 0;               // every submission went through the grader
inline constexpr int some_not_graded = 1;  // listed in the gradebook
inline constexpr int cannot_start = 2;     // bad options, no kit, no sandbox, another grader
inline constexpr int shards_missing = 3;   // merge: some shards have not finished
inline constexpr int interrupted = 130;    // finished submissions are kept; the command resumes

}  // namespace batch::command_exit
