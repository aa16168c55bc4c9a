// The batch options on labgrade's command line, declared once: `labgrade batch` and
// `labgrade shard plan` (which fixes them for every shard) take the same ones, and `labgrade shard
// run` the few a machine chooses for itself.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

#include "batch/batch.hpp"

namespace grader {

// The options as parsed, and those given in other units or senses than BatchOptions keeps them.
struct BatchOptionsCli {
  batch::BatchOptions options;
  double memory_gib = 16;
  bool no_reference = false;
  std::uint64_t seed = 0;
  CLI::Option* seed_option = nullptr;
};

// lab, submissions and out (`out_help` says what the output folder is to this command), and the
// options that decide grades: --time-limit, --shared-runs-per-gpu, --memory-gib, --kit,
// --emulated-pass, --unsandboxed, --root-in-sandbox, --no-reference, --seed.
void add_batch_options(CLI::App& command, BatchOptionsCli& cli, const std::string& out_help);

// --roster and --lms-assignment: the class's LMS (labgrade batch only; docs/lms-gradebooks.md).
void add_lms_options(CLI::App& command, batch::BatchOptions& options);

// --jobs and --gpus: what each machine chooses for itself.
void add_machine_options(CLI::App& command, batch::BatchOptions& options);

// This labgrade's path (a kit's fingerprint includes it); empty when it cannot be read.
std::filesystem::path this_executable();

// After parsing: BatchOptions from the command line (the kit defaults to this build's
// grading-kit/LAB, GPU 0 when none is given, a fresh seed unless --seed).
batch::BatchOptions parsed_batch_options(BatchOptionsCli& cli);

}  // namespace grader
