// Which GPU a sandboxed program is given. The batch numbers the GPUs it may use as CUDA does in
// its own process: when the grader itself runs with CUDA_VISIBLE_DEVICES set (a Slurm job given
// one GPU of eight, a runner sharing a machine), device N is that list's N-th entry, and that entry
// is what the program must get; "N" alone would name another job's GPU.
#pragma once

#include <cstdlib>
#include <string>

namespace batch {

// `gpu` as a CUDA_VISIBLE_DEVICES value, given the grader's own CUDA_VISIBLE_DEVICES (null or
// empty: every GPU of the machine, so `gpu` itself). An index past the list gives "-1" (no GPU:
// the program's checks are then skipped, never run on a GPU that was not given).
std::string visible_device(int gpu, const char* parent = std::getenv("CUDA_VISIBLE_DEVICES"));

}  // namespace batch
