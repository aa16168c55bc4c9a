// labgrade batch's emulated pass, on a GPU: memory errors and races found by the CPU emulator,
// without compute-sanitizer's per-context set-up on the GPU. After a submission's correctness run
// on the GPU, its kernel.cu is built again with an emulation build's grading kit of the same lab,
// and that kit's lab program (trusted) runs the correctness checks that earned points, each on its
// first, smallest case (LAB_SANITIZER_CASES=first). The emulator checks the kernels' subscripts
// against their buffers and shared memory between barriers; the lab program puts what it finds in
// the check's record ("the CPU emulation found ...", harness/sanitizer.hpp note_memory_error).
// Such a finding fails the GPU's record of the check with the emulation's words. Nothing else of
// the emulated run counts: a finding can only take points away, and a pass that does not build
// or finish is a problem for the instructor, never a loss of points.
//
// The pass is CPU work: it never holds a GPU's slot, and runs at the lowest priority (nice 19)
// beside the GPU's queue, so that the speed runs are not disturbed (emulated_step.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/evidence_share.hpp"
#include "batch/kit.hpp"
#include "contract/record.hpp"
#include "contract/spec.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {

// How every finding of the emulator begins (the bounds checks' and the race check's).
inline constexpr const char* kEmulatedFindingWords = "the CPU emulation found ";

// The pass of a batch: the emulation kit, and what a finding may name.
struct EmulatedPass {
  Kit kit;                                 // backend "emulation", the batch's lab
  std::vector<std::string> student_files;  // kernel.cu, bonus.cu: the files a finding's line names
  int emulator_threads = 2;                // LABS_EMU_THREADS of each run
};

// The batch's emulated pass from --emulated-pass (`given`: a folder, "off", or "" for the kit's
// own emulation_kit); nullopt when there is none. Throws KitError when the kit named does not
// load or is not an emulation kit of the same lab.
std::optional<EmulatedPass> emulated_pass_of(const std::string& given, const Kit& kit);

// The correctness checks of `records` (the GPU's correctness run) that earned something, then
// those `pending` (left to the speed run, not yet known to earn: a finding there is charged only
// if they do), that the emulation kit's spec has. A failed check has nothing left to lose, but
// one whose kernel faulted (an illegal address) runs for the line the GPU could not name.
std::vector<std::string> checks_for_emulated_pass(const contract::LabSpec& emulation_spec,
                                                  const std::vector<contract::CheckRecord>& records,
                                                  const std::vector<std::string>& pending = {});

// What the emulated run's records say of the checks it was asked to run.
struct EmulatedFindings {
  // check -> the finding's words, then the further reports of the same run (notes naming a
  // student's file: "kernel.cu:19 (...)").
  std::map<std::string, std::vector<std::string>> words;
  // Checks the lab program did not record (a crash, a stop, a time limit: the grader's records).
  std::vector<std::string> unfinished;
  // What the emulator measured in the kernels, check by check (batch/evidence_share.hpp).
  std::vector<CheckEvidence> evidence;
};

// A finding is a reason or note of a record the lab program sent that begins with
// kEmulatedFindingWords.
EmulatedFindings read_emulated_findings(const std::vector<contract::CheckRecord>& emulated,
                                        const std::vector<std::string>& asked,
                                        const std::vector<std::string>& student_files);

// Fails the records that still earn something with their findings (the finding as the reason,
// the rest as notes); one already failed gets the finding as its first note. Returns how many
// failed.
int apply_emulated_findings(const EmulatedFindings& findings,
                            std::vector<contract::CheckRecord>& records);

// One submission's pass: its sources already in `scratch` (a folder of its own).
struct EmulatedRun {
  std::filesystem::path scratch;
  std::vector<std::string> checks;  // checks_for_emulated_pass's
  sandbox::Policy base_policy;      // the batch's limits; the run gets nice 19
  std::uint64_t seed = 0;
  double build_seconds = 180;  // the batch's; the pass allows a multiple (it runs at nice 19)
  const std::atomic<bool>* interrupted = nullptr;
};

struct EmulatedOutcome {
  EmulatedFindings findings;
  std::vector<std::string> problems;  // did not build, did not finish: in the outcome's message
  std::vector<std::string> log;       // for the instructor's terminal only
};

// Builds the submission with the emulation kit in the sandbox and runs its checks there.
EmulatedOutcome run_emulated_pass(const EmulatedPass& pass, const EmulatedRun& run);

}  // namespace batch
