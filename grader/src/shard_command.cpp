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
  add_batch_options(*plan_, plan_options_, "Output folder (shared by every shard)");
  // The whole class is matched to its roster at the plan; each shard grades its part of the
  // matched class and the merge writes canvas.csv and moodle.csv.
  add_lms_options(*plan_, plan_options_.options);
  plan_->add_option("--shards", shards_, "How many shards (fewer when fewer submissions)")
      ->check(CLI::PositiveNumber);

  run_ = shard_->add_subcommand("run", "Grade one shard of a plan (one array task)");
  run_->add_option("out", out_, "The plan's output folder")->required();
  run_->add_option("--index", index_, "The shard (default: $SLURM_ARRAY_TASK_ID)");
  add_machine_options(*run_, node_options_);

  merge_ = shard_->add_subcommand(
      "merge", "Make the gradebook (HTML, CSV) and JUnit XML of every shard's results");
  merge_->add_option("out", out_, "The plan's output folder")->required();
}

int ShardCommand::run() {
  if (*plan_) return batch::plan_shards(parsed_batch_options(plan_options_), shards_);
  if (*run_) {
    if (index_ < 0) {
      const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
      if (task == nullptr || *task == '\0') {
        std::fprintf(stderr, "labgrade shard run: give --index (no SLURM_ARRAY_TASK_ID)\n");
        return 2;
      }
      index_ = std::atoi(task);
    }
    node_options_.labgrade_executable = this_executable();
    if (node_options_.gpus.empty()) node_options_.gpus = {0};
    return batch::run_shard(out_, index_, node_options_);
  }
  return batch::merge_shards(out_);
}

}  // namespace grader
