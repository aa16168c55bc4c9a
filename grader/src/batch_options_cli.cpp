#include "batch_options_cli.hpp"

namespace grader {

void add_batch_options(CLI::App& command, BatchOptionsCli& cli, const std::string& out_help) {
  batch::BatchOptions& options = cli.options;
  command.add_option("lab", options.lab, "The lab, e.g. lab6")->required();
  command
      .add_option("submissions", options.submissions,
                  "Folder with one entry per student: a folder holding labs/labN-*/kernel.cu, a "
                  ".zip/.tar.gz of one, or <student>.cu")
      ->required();
  command.add_option("out", options.out, out_help)->required();
  command
      .add_option("--time-limit", options.max_check_seconds,
                  "Seconds each check may run (default: the spec's timeout_s)")
      ->check(CLI::PositiveNumber);
  command
      .add_option(
          "--shared-runs-per-gpu", options.shared_runs_per_gpu,
          "Correctness runs sharing one GPU at a time (speed runs always run alone; default 8, "
          "under the CPU emulation half the cores)")
      ->check(CLI::PositiveNumber);
  command.add_option("--memory-gib", cli.memory_gib, "Host memory cap per sandbox, GiB")
      ->check(CLI::PositiveNumber);
  command.add_option("--kit", options.kit_dir,
                     "The lab's grading kit (default: grading-kit/LAB in this build)");
  command.add_option(
      "--emulated-pass", options.emulated_pass,
      "An emulation build's grading kit of the lab (grading-kit/LAB there), or 'off': after each "
      "GPU correctness run, the CPU emulation runs the checks' first cases again at nice 19 and a "
      "memory error or race it finds fails the check (default: the kit's emulation_kit, from "
      "-DLABS_EMULATION_KIT_ROOT)");
  command.add_flag("--unsandboxed", options.unsandboxed,
                   "Run submissions WITHOUT bubblewrap (only for code you trust)");
  command.add_flag(
      "--root-in-sandbox", options.root_in_sandbox,
      "Run submissions as root with no capabilities inside the sandbox instead of a uid of their "
      "own (for hosts where CUDA fails under an unnamed uid; processes are then capped only by a "
      "cgroup pids controller)");
  command.add_flag("--no-reference", cli.no_reference,
                   "Do not run the reference solution first (outputs are then not verified)");
  cli.seed_option = command.add_option(
      "--seed", cli.seed,
      "The seed of the inputs (default: a fresh secret one; give one only to compare runs)");
}

void add_lms_options(CLI::App& command, batch::BatchOptions& options) {
  command
      .add_option("--roster", options.roster,
                  "The class list: a Canvas gradebook export, a Moodle grading worksheet or "
                  "grades export, or a CSV of name,id: submissions are matched to its students "
                  "by the ids in their Canvas or Moodle download names, and canvas.csv or "
                  "moodle.csv is written for the LMS's grade import (docs/lms-gradebooks.md)")
      ->check(CLI::ExistingFile);
  command.add_option("--lms-assignment", options.lms_assignment,
                     "canvas.csv's assignment column: 'Title (assignment id)', or the title or "
                     "id of a column of the Canvas export given as --roster (default: the "
                     "column that names the lab)");
}

void add_machine_options(CLI::App& command, batch::BatchOptions& options) {
  command.add_option("--jobs,-j", options.jobs, "Parallel builds (default: CPU cores)")
      ->check(CLI::NonNegativeNumber);
  command.add_option("--gpus", options.gpus, "CUDA devices to use, e.g. --gpus 0,1")
      ->delimiter(',');
}

std::filesystem::path this_executable() {
  std::error_code ignored;
  return std::filesystem::read_symlink("/proc/self/exe", ignored);
}

batch::BatchOptions parsed_batch_options(BatchOptionsCli& cli) {
  batch::BatchOptions options = cli.options;
  options.labgrade_executable = this_executable();
  if (options.kit_dir.empty()) {
    options.kit_dir =
        options.labgrade_executable.parent_path().parent_path() / "grading-kit" / options.lab;
  }
  options.memory_bytes = static_cast<std::uint64_t>(cli.memory_gib * (1ull << 30));
  options.verify_with_reference = !cli.no_reference;
  if (options.gpus.empty()) options.gpus = {0};
  if (cli.seed_option && cli.seed_option->count() > 0) options.seed = cli.seed;
  return options;
}

}  // namespace grader
