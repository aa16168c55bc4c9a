// Whether this process runs under compute-sanitizer, and the lab's buffers as the student's kernels
// saw them there. The GPU runtime notes each buffer it places in the student's context; the check
// that is running takes the notes into its record (harness/check.hpp), from which labgrade words
// where a bad address lies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "contract/device_buffer_note.hpp"
#include "contract/record.hpp"

namespace harness {

// True when this process runs under compute-sanitizer: LAB_SANITIZER is set by every run under it
// (grader/batch/sanitize_step.hpp: labgrade batch's, and ctest's `labcheck sanitize`);
// compute-sanitizer (CUDA 13) itself marks the processes it runs with NV_SANITIZER_* variables.
bool under_sanitizer();

// True when labgrade batch runs the graded correctness run itself under compute-sanitizer memcheck
// (LAB_SANITIZER=memcheck-hosted, contract/sanitizer_run.hpp): checks grade as usual (every case,
// diagnoses, launch records), without guard zones, and a check with a case too large for the
// sanitizer is left whole to the run without it.
bool sanitizer_hosts_graded_run();

// Under compute-sanitizer in the pass (a second run that only looks for errors): diagnoses and
// launch records are not worth their time there.
inline bool in_sanitizer_pass() { return under_sanitizer() && !sanitizer_hosts_graded_run(); }

// Under compute-sanitizer: the lab's buffer `name` as the student's kernels see it (its copy in
// the student's context), kept until the running check takes it. Nothing otherwise.
void note_device_buffer(const std::string& name, std::uint64_t address, std::size_t bytes,
                        const std::string& element = "float");

// The buffers noted since the last call, in the order noted; the list starts empty again.
std::vector<contract::DeviceBufferPlace> take_device_buffer_places();

// What the CPU emulation's checks of the student's kernel found (the launcher sends emu::describe's
// words): an access outside the memory it was given (memcheck's kind of finding), or a race on
// shared memory (racecheck's).
enum class EmulatedFindingKind { memory_error, shared_race };
struct EmulatedFinding {
  EmulatedFindingKind kind;
  std::string words;  // "kernel.cu:18 (MatMulKernel), thread (0,2,0) of block (0,0,0): ..."
};

// Under the CPU emulation: a finding, kept (three at most) until the running check takes them: it
// fails with the first when it would have earned something, as the batch's sanitizer pass fails
// it on a GPU.
void note_memory_error(const std::string& words);
void note_shared_memory_race(const std::string& words);

// The findings noted since the last call, in the order noted; the list starts empty again.
std::vector<EmulatedFinding> take_memory_errors();

// Under the CPU emulation: the emulator's evidence facts about the student's kernels (the
// launcher sends them with each call's answer: emulation/src/evidence.hpp). Feedback only: they
// change no verdict. Kept in the order noted, one per kind, file and line (the one with the
// largest figure), at most kMaxEvidence, until the running check takes them; each suite (the
// checks of one function: "TransposeTiled" of "TransposeTiled.Speed") keeps what its checks
// took, for its checks that run no kernel (speed checks under the emulation, "not measured").
inline constexpr std::size_t kMaxEvidence = 8;
void note_evidence(contract::Evidence fact);
// The facts noted since the last call, now check `check`'s (and its suite's); the list starts
// empty again.
std::vector<contract::Evidence> take_evidence(const std::string& check);
// What the checks of `check`'s suite took in this run (the same limits): never another
// function's kernel's facts.
std::vector<contract::Evidence> suite_evidence(const std::string& check);

}  // namespace harness
