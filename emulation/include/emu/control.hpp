// The emulator's own controls, for the harness and the emulator's tests (not part of CUDA).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "emu/types.hpp"

namespace emu {

// The order in which the threads of a block run between barriers. forward (0, 1, 2, ...) is how
// a naive emulator runs them; reverse and random make a missing __syncthreads() visible as a
// wrong result, because a thread then reads shared memory that another has not written yet (or
// has already overwritten).
enum class Schedule { forward, reverse, random };

struct Settings {
  Schedule schedule = Schedule::random;
  std::uint64_t seed = 0;   // random schedules derive from it, per launch, block and barrier
  int threads = 0;          // OS threads that run blocks in parallel; 0: one per CPU core
  bool seed_given = false;  // LABS_EMU_SEED set, rather than the lab's seed
  // The race check on shared memory (emulation/src/shared_race_check.hpp); LABS_EMU_RACECHECK=0
  // turns it off (to measure its cost, or to rule it out).
  bool race_check = true;
  // The evidence facts (take_evidence); LABS_EMU_EVIDENCE=0 turns them off.
  bool evidence = true;
};

// LABS_EMU_SCHEDULE (forward, reverse, random), LABS_EMU_SEED, LABS_EMU_THREADS,
// LABS_EMU_RACECHECK and LABS_EMU_EVIDENCE (0 or 1) over
// `defaults`; the seed defaults to `fallback_seed` (the lab's seed, so one replay command
// replays both the inputs and the schedule).
Settings settings_from_environment(std::uint64_t fallback_seed);
void configure(const Settings& settings);
const Settings& settings();
const char* schedule_name(Schedule schedule);
// "CPU emulation (2 threads, random schedule seeded by the lab's seed)": the settings, without
// the seed when it is the run's own (the records hold that).
std::string describe();

// Launch records for the harness's structural checks: what the emulator ran between start and
// stop, as CUPTI would report it on a GPU.
struct LaunchRecord {
  std::string name;
  dim3 grid;
  dim3 block;
  long long static_shared_bytes = 0;  // the largest per block: the __shared__ variables declared
  long long dynamic_shared_bytes = 0;
  // Not cudaSuccess for a launch the runtime refused (a block of more than 1024 threads, a grid
  // over the limits): it did not run, but the lab program judges its shape as the GPU's would.
  cudaError_t refused = cudaSuccess;
};
struct CopyRecord {
  const void* destination = nullptr;
  const void* source = nullptr;
  std::size_t bytes = 0;
};
struct Recording {
  std::vector<LaunchRecord> launches;
  int memory_copies = 0;  // cudaMemcpy* calls
  std::vector<CopyRecord> copies;
};
void start_recording();
Recording stop_recording();

// Memory the emulator did not allocate that kernels use as device memory (a launcher's view of
// the lab's buffers): known to the runtime like cudaMalloc's, never freed by it. It is kept
// inaccessible (its pages PROT_NONE) except while a kernel or a runtime copy runs, so host code
// that reads it crashes as on a GPU; `start` must be page-aligned. Copies between it and host
// memory are refused, as the GPU launcher refuses them (launcher/src/cuda_runtime_standin.cpp).
void adopt_device_memory(void* start, std::size_t bytes);
// Names the part of adopted memory that kernels may use (the lab's buffer without its guard
// zones): accesses outside it are reported (take_memory_error) as "... past the end of `name`",
// counted in `element`s ("float", "int"; 4 bytes each).
void check_device_memory(void* start, std::size_t payload_offset, std::size_t payload_bytes,
                         const std::string& name, const std::string& element = "float");
void forget_device_memory(void* start);
// The first access of kernel code outside the memory it was given since the last call (the
// rewriter checks subscripts: emu/access.hpp), as compute-sanitizer's memcheck would report it.
struct MemoryError {
  std::string file;  // the name only: "kernel.cu"
  int line = 0;
  std::string kernel;
  uint3 thread{0, 0, 0};
  uint3 block{0, 0, 0};
  bool write = false;
  std::size_t size = 0;  // bytes accessed
  // "at A + 8 bytes (A[2]), 4 bytes past the end of A (A holds 1 float, 4 bytes)"
  std::string place;
  long long more = 0;  // further bad accesses in the same launches
};
std::optional<MemoryError> take_memory_error();
// "kernel.cu:18 (MatMulAnyKernel), thread (0,2,0) of block (0,0,0): invalid read of 4 bytes at
// A + 8 bytes (A[2]), 4 bytes past the end of A (A holds 1 float, 4 bytes) and 3 more like it"
std::string describe(const MemoryError& error);

// The first race on shared memory of kernel code since the last call: two threads of a block
// touching one word between the same barriers, one of them writing (emulation/src/
// shared_race_check.hpp), as compute-sanitizer's racecheck would report it. The same report at
// every run, whatever the schedule.
struct SharedRace {
  std::string kind;  // "read after write", "write after read" or "write after write"
  std::string kernel;
  uint3 block{0, 0, 0};
  // The access that completes the hazard (the later one in its thread's program) ...
  std::string file;  // the name only: "kernel.cu"
  int line = 0;
  uint3 thread{0, 0, 0};
  // ... and the other thread's.
  std::string other_file;
  int other_line = 0;
  uint3 other_thread{0, 0, 0};
  bool same_warp = false;  // then a __syncwarp() would have ordered them too
  std::string place;       // "Nds[2][3] (Nds + 140 bytes)"
  long long more = 0;      // further words with a hazard in the same launches
};
std::optional<SharedRace> take_shared_race();
// "kernel.cu:20 (MatrixMulKernel), thread (1,0,0) of block (0,0,0): read after write of
// Mds[0][0] (Mds + 0 bytes) in shared memory, which thread (0,0,0) writes at kernel.cu:17 with no
// __syncthreads() between them, and 4,095 more like it"
std::string describe(const SharedRace& race);

// What the emulator measured in the kernels it ran since the last call, at the line of the
// kernel's source (emulation/src/evidence.hpp): feedback, never a verdict. Per launch, on its
// first kProfiledBlocks blocks and its last (coalescing, bank conflicts, divergence, shared memory
// read before written) or on all of them (elements written by two threads, blocks that wrote
// nothing). At most one fact per kind, file and line; launches that failed give none.
struct EvidenceFact {
  // "uncoalesced_access", "bank_conflict", "aliasing_write", "uninitialised_shared_read",
  // "idle_blocks" or "divergence"
  std::string kind;
  std::string file;  // the name only: "kernel.cu"
  int line = 0;      // the access's (idle_blocks: the launch's)
  std::string kernel;
  // "kernel.cu:14 (MatMulKernel): each warp's read of B touches 32.0 sectors of 32 bytes ..."
  std::string words;
  double figure = 0;  // sectors per request, conflict degree, threads, words, blocks, lanes
  double ideal = 0;   // what a kernel without the fault would measure (0: none)
};
std::vector<EvidenceFact> take_evidence();

// Clears a fault's sticky error, as a fresh context would on a GPU.
void clear_errors();

// The diagnosis's shared-memory experiment (harness/diagnose_run.hpp): until it is cleared, every
// block starts its `__shared__` arrays filled with `value`. On a GPU a fill of the multiprocessors'
// shared memory reaches static and dynamic arrays alike; here a static `__shared__` array is a
// variable of its own, filled when the block first reaches its declaration (before any thread of
// the block can have written it). Nothing: blocks find what the last block on their OS thread left.
void fill_static_shared(std::optional<float> value);

}  // namespace emu
