// The checks of any "buffers in, buffer out" lab (harness/buffer_lab.hpp describes one): each
// LAB_CHECK body is one call, the spec entry giving the sizes and thresholds.
//
//   LAB_CHECK(Transpose, Correctness) { harness::check_correctness(check, transpose_lab()); }
//   LAB_CHECK(Transpose, Speed) { harness::check_speed(check, transpose_lab()); }
//
// Every case: inputs drawn from the case's seed, the output poisoned with NaN (an element never
// written cannot pass), guard zones around every buffer (a write outside fails the case), inputs
// compared after the call (a kernel may not change them), the output compared with the CPU
// reference (exact, or within its per-element tolerance; exact outputs give the grader their
// digests), and a wrong output diagnosed (harness/diagnose_run.hpp) as the matrix labs do.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "harness/buffer_lab.hpp"
#include "harness/check.hpp"
#include "harness/launch_recorder.hpp"

namespace harness {

// ---- correctness ---------------------------------------------------------------------------

// One case per size of the spec's "sizes", labelled lab.case_label(size).
void check_correctness(Check& check, const BufferLab& lab);

// One case with given inputs and expected output (worked examples with published answers).
void check_case(Check& check, const BufferLab& lab, const std::string& label, const CaseData& data,
                const Expected& expected);

// ---- launch shape and shared memory ---------------------------------------------------------

// One run of the lab at the spec's one size ("sizes") under the launch recorder. Launches are
// judged only for a right output: otherwise (or when launches cannot be recorded) the verdict
// is set and nothing is returned.
struct ObservedCall {
  RecordedActivity activity;
  CaseSize size;
  long long threads = 0;  // over every recorded launch
  long long input_elements = 0;
  long long output_elements = 0;
};
std::optional<ObservedCall> observe_call(Check& check, const BufferLab& lab);

// Passes with one thread or more per output element; with the spec's "max_extra_threads", no
// more than that beyond one per element (a whole last block). `too_many_hint` ends the failure
// when there are too many ("1000000 would be one per element of B").
struct OneThreadPerElement {
  std::string too_many_hint;
};
void check_one_thread_per_element(Check& check, const BufferLab& lab,
                                  const OneThreadPerElement& options = {});

// Passes when the launches have few enough threads that each handles the spec's
// "min_elements_per_thread" (of the output, or of the input for a reduction) or more. `hint` ends
// the failure ("make the grid shorter in y"); `diagnosis` (a harness/mistakes id) names the
// mistake when it fails, if given.
struct ElementsPerThread {
  bool count_input = false;  // a reduction: elements of its input per thread
  std::string hint;
  std::string diagnosis;
};
void check_elements_per_thread(Check& check, const BufferLab& lab,
                               const ElementsPerThread& options);

// Passes when every launch has shared memory, and (with the spec's "min_shared_bytes") at least
// that much in each. `advice` ends the failure in the handout's words ("The tile must be a
// __shared__ array, and the output written from it").
struct UsesSharedMemory {
  std::string advice;
};
void check_uses_shared_memory(Check& check, const BufferLab& lab, const UsesSharedMemory& options);

// ---- speed -----------------------------------------------------------------------------------

// Times the call at the spec's one size ("sizes") against a reference, in alternation, on inputs
// drawn on the GPU; verified right at that size before timing (a kernel that does nothing would
// be the fastest) and on the output of the timed runs. The spec gives the threshold "min_ratio"
// (its "reference" must be `reference_name`), "max_spread", "repetitions" and optionally
// "rounds" and "full_points_at_ratio".
//
// The default reference is cudaMemcpy device to device of the largest input, counted as reading
// and writing it; the student's rate counts the bytes of every input and the output. So a copy
// or a transpose is compared with memcpy's read+write bandwidth, and a reduction (which writes
// one element) with its read bandwidth.
struct SpeedOptions {
  // Another reference (a kernel shipped with the lab, cuBLAS from harness_matmul) on the case's
  // device buffers (its own output buffer given), the spec's name for it ("reference": naive,
  // cublas) and the unit of its rates.
  std::function<TimedWork(const DeviceArgs& args)> reference;
  std::string reference_name = "memcpy";
  std::string rate_unit = "GB/s";
  // The student's work at a size in rate_unit's units (default: the bytes of every buffer).
  std::function<double(const CaseSize&)> work;
};
void check_speed(Check& check, const BufferLab& lab, const SpeedOptions& options = {});

// ---- optional (bonus) functions ------------------------------------------------------------

// For a bonus check: true when the lab's function is defined (`defined`: LAB_STUDENT_DEFINES)
// and writes something at a small size; else the verdict is not_attempted (no points, no
// failure), as the starter's stub that writes nothing is.
bool bonus_attempted(Check& check, const BufferLab& lab, bool defined);

}  // namespace harness
