// Which GPU a sandboxed program is given, and how its CUDA starts there. The batch numbers the GPUs
// it may use as CUDA does in its own process: when the grader itself runs with CUDA_VISIBLE_DEVICES
// set (a Slurm job given one GPU of eight, a runner sharing a machine), device N is that list's
// N-th entry, and that entry is what the program must get; "N" alone would name another job's GPU.
#pragma once

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace batch {

// `gpu` as a CUDA_VISIBLE_DEVICES value, given the grader's own CUDA_VISIBLE_DEVICES (null or
// empty: every GPU of the machine, so `gpu` itself). An index past the list gives "-1" (no GPU:
// the program's checks are then skipped, never run on a GPU that was not given).
std::string visible_device(int gpu, const char* parent = std::getenv("CUDA_VISIBLE_DEVICES"));

// The environment of a program run on `gpu`: CUDA_VISIBLE_DEVICES (visible_device) and
// CUDA_DEVICE_MAX_CONNECTIONS=1. The CUDA driver makes and ends every process's contexts under
// one lock for the whole host, so the batch's runs queue there whichever GPU they use; a context
// with one hardware queue instead of eight takes less of it (16 processes starting and ending at
// once on one H200: 5.4 s, 3.1 s with one queue, scripts/cuda-start-bench.sh, 2026-11-28). The
// lab program runs its work and the student's kernels in one stream per context, so one queue
// takes nothing from them, and the references timed beside them run the same way.
std::vector<std::pair<std::string, std::string>> gpu_environment(
    int gpu, const char* parent = std::getenv("CUDA_VISIBLE_DEVICES"));

}  // namespace batch
