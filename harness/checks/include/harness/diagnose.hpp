// The rules that name the likely mistake behind a failed check, and their inputs: the pattern of
// the wrong elements and a few cheap experiments (re-runs of the student's launcher under changed
// conditions). Host-only: the experiments come in as callbacks, so every rule is unit-tested on
// synthetic matrices without a GPU, and the CUDA side (diagnose_run.hpp) only supplies the
// re-runs. The mistakes the rules name, with the words a report shows, are the catalogue's
// (harness/mistakes.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/contract.hpp"
#include "harness/launch_shape.hpp"
#include "harness/mistakes.hpp"

namespace harness {

// A read-only view of floats (this header is shared with the CUDA sources, which are C++17: no
// std::span). Converts from a vector; default: empty.
class Floats {
 public:
  Floats() = default;
  Floats(const std::vector<float>& values)
      : data_(values.data()), size_(values.size()) {}  // NOLINT
  Floats(const float* data, std::size_t size) : data_(data), size_(size) {}
  const float& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const float* begin() const { return data_; }
  const float* end() const { return data_ + size_; }

 private:
  const float* data_ = nullptr;
  std::size_t size_ = 0;
};

// ---- correctness: one case ----------------------------------------------------------------

// Row-major host copies of a product's operands: C (m x n) = A (m x k) * B (k x n).
struct ProductInputs {
  Floats a;
  Floats b;
  int m = 0;
  int k = 0;
  int n = 0;
  // The operands' names in the lab's contract (lab 6's M and N, lab 7's A and B, lab 4's B and
  // C), so that a diagnosis says "the result is Mᵀ·N" in the letters the student's code uses.
  std::string first = "M";
  std::string second = "N";
};

// Re-runs of the student's launcher on the same inputs. Each gives the new output, or nothing when
// the experiment cannot be made (no GPU, under compute-sanitizer, a kernel fault). Unset: not
// available.
struct Experiments {
  // The output filled with `fill` (instead of NaN) before the launch.
  std::function<std::optional<std::vector<float>>(float fill)> output_prefilled;
  // Every multiprocessor's shared memory filled with `fill` just before the launch. Every call
  // runs on the same buffers (the same allocations, the inputs uploaded again, the output NaN
  // again): a kernel that reads memory outside its inputs reads the same values there each time,
  // so only a real run-to-run change (a race) makes two calls with the same fill differ.
  std::function<std::optional<std::vector<float>>(float fill)> shared_prefilled;
  // The inputs' guard zones (the memory just outside them) filled with NaN.
  std::function<std::optional<std::vector<float>>()> input_guards_nan;
};

struct DiagnosisInput {
  Floats expected;
  Floats got;        // empty when the launch failed
  Floats tolerance;  // empty: exact comparison
  long long rows = 0;
  long long cols = 0;
  std::vector<OutOfBoundsWrite> out_of_bounds;  // writes into any buffer's guard zones
  std::string launch_error;                     // the error text when the launch failed
  std::optional<LaunchShape> launch;
  // Whether any recorded launch had shared memory (unset: nothing recorded). Without it, outputs
  // that change from run to run are no race on shared memory (nor stale shared memory read):
  // those rules stay silent, and the reads outside the inputs or the writes outside the output
  // are left to speak.
  std::optional<bool> uses_shared_memory;
  std::optional<ProductInputs> product;
  // A reduction's input: the values of the one input of a one-element output (a sum), so that a
  // wrong sum can be matched with the sum of a part of it (diagnose_sum.cpp). Empty otherwise.
  Floats reduced_input;
  Experiments experiments;
};

// What the rules found out about one failed case: the likely mistake, and whether the output
// repeats, which the check's diagnosis needs (a failure that depends on the size, not the run).
struct CaseFindings {
  std::optional<Diagnosis> diagnosis;
  // The experiment's runs on the same buffers (shared memory NaN twice, then 0) all gave the same
  // output: true; they differed (a race, or stale shared memory read): false; not made: unset.
  std::optional<bool> output_repeats;
};
CaseFindings examine_case(const DiagnosisInput& input);

// The likely mistake behind one failed case, or nothing when no rule fits.
std::optional<Diagnosis> diagnose_case(const DiagnosisInput& input);

// The diagnosis of a launch the GPU refused (the CUDA error's text), or nothing.
std::optional<Diagnosis> diagnose_launch_error(const std::string& error_text);

// The tile sizes worth trying: the recorded 2D block's side first, then 16, 32 and 8.
std::vector<int> tile_candidates(const std::optional<LaunchShape>& launch);

// ---- a check: many cases ------------------------------------------------------------------

// The check's diagnosis: diagnose_sizes' when it names one, else the diagnosis that fits the most
// failed cases (a case counts for every mistake that fits it equally well); ties go to the earliest
// case. Nothing when no failed case has one.
std::optional<Diagnosis> choose_check_diagnosis(const std::vector<CaseResult>& cases);

// `size_fixed_in_code`: a failure that depends on the size and not on the run (diagnose_sizes.cpp).
// Every judged case has a width (CaseResult::width), some widths are right and the others wrong,
// all of them on one side of the right ones, and each wrong case gave the same output at every
// run (CaseResult::output_repeats). Nothing when the widths split as multiples of a tile side
// from the rest (an edge mistake), or when one specific case diagnosis (not only "NaN
// everywhere" or "reads outside") explains every diagnosed failed case.
std::optional<Diagnosis> diagnose_sizes(const std::vector<CaseResult>& cases);

// ---- speed ----------------------------------------------------------------------------------

// Why a speed check failed (nothing when it passed): the costliest performance fact measured in
// the kernel (`evidence`: uncoalesced access, bank conflicts, idle blocks, divergent warps) when
// there is one; else `slow_kernel` with the kernel's place under the roofline, naming no cause.
std::optional<Diagnosis> diagnose_speed(const Timing& timing,
                                        const std::vector<Evidence>& evidence);

// One sentence on why the kernel runs as fast as it does: its place under the roofline (the
// bandwidth and cuBLAS measured in the same run) where those were measured, else its share of
// the reference.
std::string speed_reading(const Timing& timing);

}  // namespace harness
