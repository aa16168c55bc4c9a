// A lab's grading kit (build/grading-kit/labN/kit.json, written by CMake): how to build a
// student's kernel.cu against the instructor's checks and harness, and where the spec is.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "contract/spec.hpp"

namespace batch {

struct KitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Kit {
  std::filesystem::path dir;
  std::string lab;     // "lab6"
  std::string folder;  // "lab6-tiled-matmul"
  std::filesystem::path spec_path;
  std::filesystem::path handout;
  std::filesystem::path reference_kernel;  // the instructor's solution; empty when absent
  // Files a submission may add next to kernel.cu (bonus.cu), built and linked when present; the
  // reference's are next to reference_kernel.
  std::vector<std::string> optional_sources;
  // "cuda", or "emulation" (kernels on the CPU: the spec's "emulation" overrides apply).
  std::string backend = "cuda";
  // The lab program, trusted and built once: a submission builds only its launcher
  // (harness/student_call.hpp).
  std::filesystem::path program;
  std::string nvcc;
  std::string cxx;
  std::vector<std::string> compile_flags;
  std::vector<std::string> link_flags;
  std::vector<std::filesystem::path> read_only;  // what the sandbox shows besides the submission
  // compute-sanitizer, for the pass over the correctness checks' first cases (GPU kits built
  // where it is installed); empty: no pass.
  std::string sanitizer;
  // cuobjdump, to list a submission's kernels for the hosted memcheck run; empty: not known.
  std::string cuobjdump;
  // An emulation build's kit of the same lab (a GPU kit's, from LABS_EMULATION_KIT_ROOT), for the
  // batch's emulated pass (batch/emulated_pass.hpp); empty: no pass unless --emulated-pass.
  std::filesystem::path emulation_kit;
  contract::LabSpec spec;
};

// Throws KitError naming the file and what is wrong (missing, not JSON, a field missing, a spec
// that does not load, a library that was never built).
Kit load_kit(const std::filesystem::path& dir);

// A digest of everything that decides a grade besides the submission: the kit's files and the
// labgrade executable. A cached result is reused only under the same grader.
std::string grader_fingerprint(const Kit& kit, const std::filesystem::path& labgrade_executable);

}  // namespace batch
