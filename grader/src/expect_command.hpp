// `labcheck expect fail|pass ... -- LAB_PROGRAM ...`: ctest's self-tests of the checks
// (labN.must_fail.<kernel>, labN.must_pass.<kernel>, cmake/AddLab.cmake). Runs the lab program with
// a known-wrong (or known-right) launcher, LAB_LAUNCHER, exactly as `labcheck run` does
// (lab_program_run.hpp: the batch's runner and verdict table), keeps the records in --results, and
// decides whether the run met the expectation (expectation.hpp): exit 0 met, 1 not met, 77 nothing
// could be judged here (no GPU, only speed checks under the CPU emulation, a program not built, no
// root to isolate by hand), 2 a bad command line or spec. The same command's other modes:
// `build-fail` (expect_build_command.hpp: a kernel whose build must fail) and `launcher-view`
// (expect_view_command.hpp: the view of a launcher isolated by hand).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "expect_build_command.hpp"
#include "expectation.hpp"

namespace grader {

struct ExpectOptions {
  bool must_pass = false;  // `expect pass`; else `expect fail`
  std::string spec;
  std::string results_dir;
  std::vector<std::string> checks;
  FailureExpectation failure;
  // The lab program and its arguments; the runner adds --gtest_filter.
  std::vector<std::string> command;
};

int expect_command(const ExpectOptions& options);

// "A.B:C.D" (a gtest filter's form, as --checks and --evidence-checks take it) -> A.B, C.D.
std::vector<std::string> split_checks(const std::string& filter);

// The command line of `labcheck expect fail|pass|build-fail` (expect_cli.cpp; build-fail is
// expect_build_command.hpp's).
class ExpectCommand {
 public:
  explicit ExpectCommand(CLI::App& app);
  bool chosen() const { return expect_cmd_->parsed(); }
  int run();

 private:
  void add_failure_options(CLI::App& command);
  bool options_fit(const std::vector<CLI::Option*>& options, bool given) const;

  CLI::App* expect_cmd_;
  std::string mode_;
  ExpectOptions options_;
  BuildFailureOptions build_;
  std::vector<std::string> command_;
  std::string checks_;     // A.B:C.D
  std::string diagnoses_;  // "id other-id"
  std::string evidence_;   // "kind other-kind"
  std::string isolation_;
  std::string says_;                           // the --says sentences, one a line
  std::vector<CLI::Option*> run_options_;      // fail and pass need them
  std::vector<CLI::Option*> failure_options_;  // fail only
  std::vector<CLI::Option*> build_options_;    // build-fail only
};

}  // namespace grader
