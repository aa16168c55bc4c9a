// GoogleTest glue. A lab's test file declares each graded check with LAB_CHECK(Suite, Name); the
// spec entry with id "Suite.Name" gives its points and parameters. The check's outcome is written
// as a result record and turned into a GoogleTest failure with a message that says what and where.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "contract/grader_channel.hpp"
#include "harness/contract.hpp"
#include "harness/device_buffer.hpp"
#include "harness/element.hpp"
#include "harness/sanitizer.hpp"  // under_sanitizer(), note_device_buffer()

namespace harness {

// What the whole test process shares: set up once by the lab's main().
struct LabRun {
  LabSpec spec;
  std::filesystem::path results_dir;
  std::uint64_t seed = 0;
  std::string executable;       // absolute path, for the replay command
  std::string launcher;         // the student's launcher program (harness/student_call.hpp)
  std::string gpu_unavailable;  // non-empty: every check is skipped with this reason
  std::optional<DeviceInfo> device;
  bool context_lost = false;  // a kernel fault made the CUDA context unusable
  // Set under the batch grader: records go through this channel instead of files.
  std::optional<contract::GraderChannel> channel;
  // Where the kernels run, as records and reports name it: "cuda", or under the CPU emulation
  // (LABS_BACKEND=emulation) the emulator's description. Speed is not measured under emulation.
  std::string backend = "cuda";
  bool emulated = false;
};
LabRun& lab_run();

class Check {
 public:
  explicit Check(const CheckSpec& spec);

  const CheckSpec& spec() const { return spec_; }
  // Seed for one case: the run's seed mixed with the check and case names.
  std::uint64_t seed_for(std::string_view label) const;

  // Runs one case (one size, one scenario). The body fills `result` with the helpers below; an
  // error from the student's launcher fails the case with its message. After a kernel fault the
  // remaining cases are reported as not run.
  void run_case(const std::string& name, const std::function<void(CaseResult&)>& body);

  // For checks that are one verdict rather than a list of cases (speed, structure).
  void set_verdict(Verdict verdict, std::string reason);
  // The verdict set so far, if any (before finish()).
  std::optional<Verdict> explicit_verdict() const {
    return explicit_verdict_ ? std::optional(explicit_verdict_->first) : std::nullopt;
  }
  std::string explicit_reason() const {
    return explicit_verdict_ ? explicit_verdict_->second : std::string();
  }
  // The share of the check's points earned, for a verdict set with set_verdict (else pass is 1
  // and everything else 0); used by checks scored by share (full_points_at_ratio).
  void set_fraction(double fraction) { explicit_fraction_ = fraction; }
  void set_timing(const Timing& timing) { record_.timing = timing; }
  void note(std::string text) { record_.notes.push_back(std::move(text)); }
  // Names the check's likely mistake outright (structure and speed checks know it from what they
  // measured); failed correctness checks get theirs from their cases.
  void diagnose(Diagnosis diagnosis) { record_.diagnosis = std::move(diagnosis); }
  void add_kernel_facts(KernelFacts facts) { record_.kernels.push_back(std::move(facts)); }
  bool has_kernel_facts() const { return !record_.kernels.empty(); }
  const std::vector<KernelFacts>& kernel_facts() const { return record_.kernels; }

  // Decides the verdict and fraction from the cases (or the explicit verdict).
  CheckRecord finish(double duration_s);

 private:
  void decide_verdict();
  void apply_memory_errors();  // note_memory_error's reports, after the verdict

  const CheckSpec& spec_;
  CheckRecord record_;
  std::optional<std::pair<Verdict, std::string>> explicit_verdict_;
  std::optional<double> explicit_fraction_;
};

// Runs a check body, records the outcome and reports it to GoogleTest.
void run_check(const std::function<void(Check&)>& body);

// ---- under compute-sanitizer ---------------------------------------------------------------
// compute-sanitizer's racecheck slows a matrix product about a thousandfold (on an H200 the
// 2048x2048x2048 tiled product took 109 s under racecheck, against 2 ms alone; 4096 would take
// about 15 minutes, past the sanitizer test's time limit). Under compute-sanitizer the
// correctness checks therefore leave out cases of more than kSanitizerMaxWork multiply-adds: a race
// or a bad index shows at the smaller sizes as well, and every size is graded in the normal run.
constexpr double kSanitizerMaxWork = 1073741824.0;  // 1024 x 1024 x 1024

// True in labgrade batch's compute-sanitizer pass (LAB_SANITIZER_CASES=first under
// compute-sanitizer): each check runs its first case only, the smallest in every spec, because
// the pass looks for memory errors and races, which show at any size, and runs for every
// submission.
bool sanitizer_first_case_only();

// How a check's reason begins when the CPU emulation's bounds checks found an access of the
// student's kernel outside the memory it was given (harness/sanitizer.hpp, note_memory_error).
inline constexpr const char* kEmulatedMemcheckWords =
    "the CPU emulation found an access outside the memory it was given";
// ... and when its race check found a race on shared memory (note_shared_memory_race).
inline constexpr const char* kEmulatedRacecheckWords =
    "the CPU emulation found a race on shared memory";

// True (with a note on the check) when the case `label` of `multiply_adds` is left out because
// it would be too slow under compute-sanitizer.
bool leave_out_under_sanitizer(Check& check, double multiply_adds, const std::string& label);

// Marks the check skipped when every one of its cases was left out under compute-sanitizer.
void skip_if_all_left_out(Check& check, int cases_run);

// ---- helpers for case bodies -------------------------------------------------------------
// Compares the device matrix with the expected values (exact when `tolerance` is empty).
void expect_matrix(CaseResult& result, const std::vector<float>& expected, const DeviceBuffer& got,
                   long long rows, long long cols, const std::vector<float>& tolerance = {});
// Fails the case if anything was written into the buffer's guard zones.
void expect_guards_intact(CaseResult& result, const DeviceBuffer& buffer, long long cols);
// Fails the case if a kernel changed an input.
void expect_unchanged(CaseResult& result, const DeviceBuffer& input, const HostView& original);

// Appends one sentence to a case's reason and marks it failed.
void fail_case(CaseResult& result, const std::string& reason);

}  // namespace harness

// LAB_CHECK(CopyMatrix, Correctness) { ... uses `check` ... }
#define LAB_CHECK(suite, name)                                             \
  static void suite##_##name##_check_body(::harness::Check& check);        \
  TEST(suite, name) { ::harness::run_check(suite##_##name##_check_body); } \
  static void suite##_##name##_check_body(::harness::Check& check)
