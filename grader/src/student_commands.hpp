// The subcommands ctest runs for a lab on a student's machine: `run` (the lab program through the
// runner and verdict table), `sanitize` (compute-sanitizer's pass, charging findings to the run's
// checks), `verdict` (one check's part of that run), `report` (the HTML report) and, in an
// instructor's build with self-tests, `expect` (a known-wrong kernel must fail its checks, a
// known-right one pass them: expect_command.hpp). Declared once here and offered by two programs:
// labcheck, the small program a student's `make labN` builds for ctest, and labgrade, the
// instructor's tool, which has them too.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>

#include "expect_command.hpp"
#include "report_command.hpp"
#include "run_command.hpp"
#include "sanitize_command.hpp"

namespace grader {

class StudentCommands {
 public:
  explicit StudentCommands(CLI::App& app);
  // The exit status of the chosen command; nullopt when none of these was chosen.
  std::optional<int> run();

 private:
  void add_sanitize_options();

  CLI::App* report_cmd_;
  CLI::App* run_cmd_;
  CLI::App* sanitize_cmd_;
  CLI::App* verdict_cmd_;
  ReportOptions report_;
  RunOptions run_;
  SanitizeOptions sanitize_;
  VerdictOptions verdict_;
  ExpectCommand expect_;
};

}  // namespace grader
