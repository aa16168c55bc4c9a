// labgrade batch: grade a class's submissions of one lab on this machine's GPUs. Submissions are
// built in parallel on the CPU cores and run in sandboxes; correctness runs share a GPU, speed
// runs have it alone. Writes a report and Gradescope results per student, the class gradebook
// (HTML, CSV) and JUnit XML, and keeps finished results so that a stopped batch resumes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace batch {

// Whether a batch grades a submission, and a note for its gradebook line.
struct Selection {
  bool grade = true;
  std::string note;
};

struct BatchOptions {
  std::string lab;                    // "lab6"
  std::filesystem::path submissions;  // one entry per student
  std::filesystem::path out;          // reports, gradebook, exports (and .labgrade/ state)
  std::filesystem::path kit_dir;      // default: <build>/grading-kit/<lab>
  std::filesystem::path labgrade_executable;
  int jobs = 0;              // parallel builds; 0: one per CPU core
  std::vector<int> gpus{0};  // CUDA device numbers
  // Correctness runs at once on one GPU: mostly host work (start-up, inputs, comparisons), about
  // 1 GiB of GPU memory each at lab 6's 4096^2 products. 0: 8 on a GPU; under the CPU emulation,
  // where each run's kernels use every core, half the cores (at least 1).
  int shared_runs_per_gpu = 0;
  double max_check_seconds = 0;  // 0: each check's timeout_s from the spec
  double build_seconds = 180;
  std::uint64_t memory_bytes = 16ull << 30;
  int max_processes = 256;
  bool unsandboxed = false;           // run without bubblewrap: only on explicit request
  bool root_in_sandbox = false;       // runs stay root (no capabilities) instead of own uids
  bool verify_with_reference = true;  // run the instructor's solution first (digests, kit check)
  std::optional<std::uint64_t> seed;  // default: a fresh secret seed for each batch
  // The emulated memory and race pass (batch/emulated_pass.hpp): an emulation kit's folder, "off",
  // or "" for the kit's own (kit.json's emulation_kit, from LABS_EMULATION_KIT_ROOT).
  std::string emulated_pass;
  // The class's roster (labgrade batch --roster; grader/lms): submissions are matched to its
  // students by the ids in their LMS download names, and canvas.csv and moodle.csv are written.
  // Empty: every submission is its own student, named by its file or folder (as without it).
  std::filesystem::path roster;
  std::string lms_assignment;  // canvas.csv's assignment column (--lms-assignment)

  // Grading in shards (batch/shard.hpp); a plain batch leaves these empty.
  std::filesystem::path state_dir;     // default: out/.labgrade
  std::filesystem::path outcomes_dir;  // set: each student's outcome file there, no class files
  // Called with each submission's slug and digest (batch/submission_digest.hpp).
  std::function<Selection(const std::string& slug, const std::string& digest)> select;
};

// Exit status: 0 every submission went through the grader (whatever its grade), 1 some could
// not be graded (listed in the gradebook), 2 the batch could not start (bad options, no kit, no
// sandbox), 130 interrupted (finished submissions are kept; the same command resumes).
int run_batch(const BatchOptions& options);

}  // namespace batch
