// labgrade shard plan|run|merge: batch grading split into shards that run as separate jobs (a
// Slurm job array, scripts/slurm/), merged into one gradebook. See batch/shard.hpp.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>

#include "batch/batch.hpp"

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
  batch::BatchOptions options_;
  std::filesystem::path out_;
  int shards_ = 4;
  int index_ = -1;
  double memory_gib_ = 16;
  bool no_reference_ = false;
  std::uint64_t seed_ = 0;
  CLI::Option* seed_option_ = nullptr;
};

}  // namespace grader
