// The emulated pass in a batch (batch/emulated_pass.hpp): started right after a submission's
// correctness run, it runs beside the submission's speed run in one of the batch's emulated
// slots, never holding a GPU's; the submission's outcome waits for it. The reference solution's
// pass is the emulation kit's test: a finding or an unfinished pass there means the kit cannot be
// trusted, no student is charged with the pass's findings, and compute-sanitizer looks instead
// (batch/sanitizer_plan.hpp, sanitizer_plan_of).
#pragma once

#include <future>
#include <string>
#include <vector>

#include "batch/emulated_pass.hpp"
#include "batch_state.hpp"

namespace batch {

// "emulated@cpu" in .labgrade/timeline.csv (scripts/batch-timeline.py).
inline constexpr const char* kEmulatedPhase = "emulated@cpu";

class EmulatedPassInFlight {
 public:
  // Starts the pass over the correctness checks of `records` that earned something and those
  // `pending` (left to the speed run by the hosted memcheck run); nothing when the batch has no
  // emulated pass, there is no such check, or the batch is interrupted.
  EmulatedPassInFlight(BatchState& batch, const std::string& slug, const Sources& sources,
                       const std::vector<contract::CheckRecord>& records,
                       const std::vector<std::string>& pending);
  ~EmulatedPassInFlight();
  EmulatedPassInFlight(const EmulatedPassInFlight&) = delete;
  EmulatedPassInFlight& operator=(const EmulatedPassInFlight&) = delete;

  // Waits for the pass and applies its findings to `records` and its problems to `problems`.
  // The reference's pass is kept for the others to check against, not waited for. False when the
  // pass did not look at every check it was to run (it could not build kernel.cu, did not finish,
  // or the reference's pass says the emulation kit cannot be trusted): the GPU's pass looks then.
  bool finish(std::vector<contract::CheckRecord>& records, std::vector<std::string>& problems);

 private:
  BatchState& batch_;
  std::string slug_;
  std::shared_future<EmulatedOutcome> running_;
};

}  // namespace batch
