// Builds one submission in the sandbox: the student's kernel.cu (alone) compiled with nvcc and
// linked with the kit's checks and harness, exactly as the lab's CMake target does. The scratch
// folder appears inside as /submission; the compiler's messages are kept for the report.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "batch/kit.hpp"
#include "batch/status.hpp"
#include "sandbox/sandbox.hpp"

namespace batch {

inline constexpr const char* kSandboxSubmission = "/submission";

struct BuildResult {
  bool ok = false;
  Status status = Status::compile_error;  // or link_error, build_timed_out; when not ok
  std::string output;  // the compiler's and linker's messages, /submission/ taken out
  // One line on what went wrong, where the messages tell (a link error: "kernel.cu calls
  // cublasSgemm_v2 (cuBLAS), which this lab does not allow: ..."); "" otherwise.
  std::string problem;
  double seconds = 0;
  std::vector<std::string> notes;  // e.g. an optional file left out because it does not compile
  // The launcher's kernels (mangled names, from the kit's cuobjdump): the hosted memcheck run
  // instruments these alone. Empty when not known: then every kernel is instrumented.
  std::vector<std::string> kernels;
};

// The kernels' names in cuobjdump -symbols' listing (its STO_ENTRY symbols); empty when a name
// is not a plain mangled name (it would not survive compute-sanitizer's filter syntax).
std::vector<std::string> kernel_names_in_symbols(const std::string& listing);

// `scratch` holds kernel.cu; on success it also holds the lab program, named after the lab.
BuildResult build_submission(const Kit& kit, const std::filesystem::path& scratch,
                             const sandbox::Policy& base_policy, double time_limit_s);

// The path of the lab program inside the sandbox of `policy` (from submission_policy).
std::string sandbox_program(const Kit& kit, const sandbox::Policy& policy);
// The submission's launcher program there (a GPU kit), or "" (emulation: it is in the program).
std::string sandbox_launcher(const Kit& kit, const sandbox::Policy& policy);

// The policy for everything a submission does: its scratch folder read-write at /submission
// (the working folder), the kit read-only, nothing else of the host. `base` gives the limits.
sandbox::Policy submission_policy(const Kit& kit, const std::filesystem::path& scratch,
                                  const sandbox::Policy& base);

}  // namespace batch
