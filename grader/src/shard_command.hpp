// labgrade shard plan|run|merge: batch grading split into shards that run as separate jobs (a
// Slurm job array, scripts/slurm/), merged into one gradebook. See batch/shard.hpp.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>

#include "batch/batch.hpp"
#include "batch_options_cli.hpp"

namespace grader {

class ShardCommand {
 public:
  explicit ShardCommand(CLI::App& app);
  bool chosen() const { return shard_->parsed(); }
  int run();

 private:
  CLI::App* shard_;
  CLI::App* plan_;
  CLI::App* run_;
  CLI::App* merge_;
  BatchOptionsCli plan_options_;      // plan: every option that decides grades
  batch::BatchOptions node_options_;  // run: what this machine chooses (gpus, jobs)
  std::filesystem::path out_;
  int shards_ = 4;
  int index_ = -1;
};

}  // namespace grader
