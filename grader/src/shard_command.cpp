#include "shard_command.hpp"

#include <cstdlib>
#include <string>

#include "batch/shard.hpp"

namespace grader {

ShardCommand::ShardCommand(CLI::App& app) {
  shard_ = app.add_subcommand(
      "shard",
      "Grade a class in shards, e.g. as a Slurm job array (scripts/slurm/submit.sh): plan, run "
      "each shard anywhere that sees OUT, merge into one gradebook");
  shard_->require_subcommand(1);

  plan_ = shard_->add_subcommand(
      "plan",
      "Write OUT/manifest.json: the submissions dealt into shards, the secret seed and the "
      "grading options; prints the number of shards");
  plan_->add_option("lab", options_.lab, "The lab, e.g. lab6")->required();
  plan_->add_option("submissions", options_.submissions, "Folder with one entry per student")
      ->required();
  plan_->add_option("out", options_.out, "Output folder (shared by every shard)")->required();
  plan_->add_option("--shards", shards_, "How many shards (fewer when fewer submissions)")
      ->check(CLI::PositiveNumber);
  plan_
      ->add_option("--time-limit", options_.max_check_seconds,
                   "Seconds each check may run (default: the spec's timeout_s)")
      ->check(CLI::PositiveNumber);
  plan_
      ->add_option(
          "--shared-runs-per-gpu", options_.shared_runs_per_gpu,
          "Correctness runs sharing one GPU at a time (speed runs always run alone; default 8, "
          "under the CPU emulation half the cores)")
      ->check(CLI::PositiveNumber);
  plan_->add_option("--memory-gib", memory_gib_, "Host memory cap per sandbox, GiB")
      ->check(CLI::PositiveNumber);
  plan_->add_option("--kit", options_.kit_dir,
                    "The lab's grading kit (default: grading-kit/LAB in this build)");
  plan_->add_flag("--unsandboxed", options_.unsandboxed,
                  "Run submissions WITHOUT bubblewrap (only for code you trust)");
  plan_->add_flag("--root-in-sandbox", options_.root_in_sandbox,
                  "Run submissions as root with no capabilities inside the sandbox");
  plan_->add_flag("--no-reference", no_reference_, "Do not run the reference solution first");
  seed_option_ = plan_->add_option(
      "--seed", seed_,
      "The seed of the inputs (default: a fresh secret one; give one only to compare runs)");

  run_ = shard_->add_subcommand("run", "Grade one shard of a plan (one array task)");
  run_->add_option("out", out_, "The plan's output folder")->required();
  run_->add_option("--index", index_, "The shard (default: $SLURM_ARRAY_TASK_ID)");
  run_->add_option("--gpus", options_.gpus, "CUDA devices to use, e.g. --gpus 0,1")->delimiter(',');
  run_->add_option("--jobs,-j", options_.jobs, "Parallel builds (default: CPU cores)")
      ->check(CLI::NonNegativeNumber);

  merge_ = shard_->add_subcommand(
      "merge", "Make the gradebook (HTML, CSV) and JUnit XML of every shard's results");
  merge_->add_option("out", out_, "The plan's output folder")->required();
}

int ShardCommand::run() {
  std::error_code ignored;
  options_.labgrade_executable = std::filesystem::read_symlink("/proc/self/exe", ignored);
  if (*plan_) {
    if (options_.kit_dir.empty()) {
      options_.kit_dir =
          options_.labgrade_executable.parent_path().parent_path() / "grading-kit" / options_.lab;
    }
    options_.memory_bytes = static_cast<std::uint64_t>(memory_gib_ * (1ull << 30));
    options_.verify_with_reference = !no_reference_;
    if (seed_option_->count() > 0) options_.seed = seed_;
    return batch::plan_shards(options_, shards_);
  }
  if (*run_) {
    if (index_ < 0) {
      const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
      if (task == nullptr || *task == '\0') {
        std::fprintf(stderr, "labgrade shard run: give --index (no SLURM_ARRAY_TASK_ID)\n");
        return 2;
      }
      index_ = std::atoi(task);
    }
    if (options_.gpus.empty()) options_.gpus = {0};
    return batch::run_shard(out_, index_, options_);
  }
  return batch::merge_shards(out_);
}

}  // namespace grader
