// labgrade: the command-line tool for grade reports (and, later, batch grading).
#include <CLI/CLI.hpp>

#include <filesystem>

#include "batch/batch.hpp"
#include "shard_command.hpp"
#include "student_commands.hpp"
#include "timings_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"labgrade: grade CUDA matrix labs and render HTML grade reports"};
  app.set_version_flag("--version", std::string(LABGRADE_VERSION));
  app.require_subcommand(1);

  // run, verdict, report: the commands ctest runs (labcheck has them too).
  grader::StudentCommands student(app);

  std::vector<std::string> timing_dirs;
  auto* timings_cmd = app.add_subcommand(
      "timings", "Print the speed records of results folders as a Markdown table");
  timings_cmd->add_option("results", timing_dirs, "Folders of result records")->required();

  batch::BatchOptions batch_options;
  double memory_gib = 16;
  auto* batch_cmd = app.add_subcommand(
      "batch",
      "Grade a folder of student submissions of one lab: sandboxed builds and runs, a report "
      "per student, the class gradebook (HTML, CSV), Gradescope results and JUnit XML");
  batch_cmd->add_option("lab", batch_options.lab, "The lab, e.g. lab6")->required();
  batch_cmd
      ->add_option("submissions", batch_options.submissions,
                   "Folder with one entry per student: a folder holding "
                   "labs/labN-*/kernel.cu, a .zip/.tar.gz of one, or <student>.cu")
      ->required();
  batch_cmd->add_option("out", batch_options.out, "Output folder (created; re-running resumes)")
      ->required();
  batch_cmd->add_option("--jobs,-j", batch_options.jobs, "Parallel builds (default: CPU cores)")
      ->check(CLI::NonNegativeNumber);
  batch_cmd->add_option("--gpus", batch_options.gpus, "CUDA devices to use, e.g. --gpus 0 1")
      ->delimiter(',');
  batch_cmd
      ->add_option("--time-limit", batch_options.max_check_seconds,
                   "Seconds each check may run (default: the spec's timeout_s)")
      ->check(CLI::PositiveNumber);
  batch_cmd
      ->add_option(
          "--shared-runs-per-gpu", batch_options.shared_runs_per_gpu,
          "Correctness runs sharing one GPU at a time (speed runs always run alone; default 8, "
          "under the CPU emulation half the cores)")
      ->check(CLI::PositiveNumber);
  batch_cmd->add_option("--memory-gib", memory_gib, "Host memory cap per sandbox, GiB")
      ->check(CLI::PositiveNumber);
  batch_cmd->add_option("--kit", batch_options.kit_dir,
                        "The lab's grading kit (default: grading-kit/LAB in this build)");
  batch_cmd->add_flag("--unsandboxed", batch_options.unsandboxed,
                      "Run submissions WITHOUT bubblewrap (only for code you trust)");
  batch_cmd->add_flag(
      "--root-in-sandbox", batch_options.root_in_sandbox,
      "Run submissions as root with no capabilities inside the sandbox instead of a uid of their "
      "own (for hosts where CUDA fails under an unnamed uid; processes are then capped only by a "
      "cgroup pids controller)");
  bool no_reference = false;
  batch_cmd->add_flag("--no-reference", no_reference,
                      "Do not run the reference solution first (outputs are then not verified)");
  std::uint64_t seed = 0;
  auto* seed_option = batch_cmd->add_option(
      "--seed", seed,
      "The seed of the inputs (default: a fresh secret one; give one only to compare runs)");
  grader::ShardCommand shard(app);

  CLI11_PARSE(app, argc, argv);
  if (const auto status = student.run()) return *status;
  if (*timings_cmd) return grader::timings_command(timing_dirs);
  if (shard.chosen()) return shard.run();
  if (*batch_cmd) {
    std::error_code ignored;
    batch_options.labgrade_executable = std::filesystem::read_symlink("/proc/self/exe", ignored);
    if (batch_options.kit_dir.empty()) {
      batch_options.kit_dir = batch_options.labgrade_executable.parent_path().parent_path() /
                              "grading-kit" / batch_options.lab;
    }
    batch_options.memory_bytes = static_cast<std::uint64_t>(memory_gib * (1ull << 30));
    batch_options.verify_with_reference = !no_reference;
    if (batch_options.gpus.empty()) batch_options.gpus = {0};
    if (seed_option->count() > 0) batch_options.seed = seed;
    return batch::run_batch(batch_options);
  }
  return 2;
}
