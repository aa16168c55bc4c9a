// The GPU side of the diagnosis: re-runs of the student's launcher for diagnose_case's experiments,
// the launch shape recorded while a case runs, and the step that diagnoses a failed case.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/device_buffer.hpp"
#include "harness/diagnose.hpp"
#include "harness/launch_recorder.hpp"

namespace harness {

// One input of a case, as uploaded: its host values (of its element type) and its row length
// (for the guard size).
struct RerunInput {
  std::string name;
  HostView values;
  long long cols = 1;
};

// What a case ran, enough to run it again: its inputs, the size of its output, and the launcher
// on device pointers (inputs in the order given, then the output), with `call` for messages.
struct CaseRerun {
  std::vector<RerunInput> inputs;
  std::size_t output_size = 0;
  std::function<void(const std::vector<void*>& inputs, float* output)> launch;
  std::string call;
};

// The experiments diagnose_case may ask for; none under compute-sanitizer or after a kernel fault.
Experiments make_experiments(const CaseRerun& rerun);

// Records the student's launches around a case's launch where CUPTI is free (not under
// compute-sanitizer); stop() gives nothing when it was not.
class CaseLaunchCapture {
 public:
  CaseLaunchCapture();
  std::optional<RecordedActivity> stop();

 private:
  std::optional<LaunchRecorder> recorder_;
};

// The launch of the recorded kernel with the most threads, for the diagnosis and the error map.
std::optional<LaunchShape> main_launch(const std::optional<RecordedActivity>& activity);

// Everything a failed case gives to diagnose: the output compared, the recorded launch, the
// operands of a product, and how to run it again.
struct FailedCase {
  const std::vector<float>* expected = nullptr;
  const std::vector<float>* tolerance = nullptr;  // null or empty: exact
  long long rows = 0;
  long long cols = 0;
  const DeviceBuffer* output = nullptr;
  std::optional<LaunchShape> launch;
  std::optional<bool> uses_shared_memory;  // any recorded launch with shared memory
  std::optional<ProductInputs> product;
  const CaseRerun* rerun = nullptr;
};

// Whether any recorded launch had shared memory (static or dynamic); unset when nothing was
// recorded.
std::optional<bool> any_shared_memory(const std::optional<RecordedActivity>& activity);

// Draws the launch's blocks on the case's error map and, when the case failed, names the likely
// mistake (result.diagnosis). Never throws: a diagnosis is help, not a verdict.
void diagnose_failed_case(CaseResult& result, const FailedCase& failed);

}  // namespace harness
