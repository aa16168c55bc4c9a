// labcheck: what ctest runs for a lab on a student's machine (cmake/run_check.sh): run, verdict
// and report, the same commands as labgrade's; and expect, the self-tests of the checks
// (labN.must_fail.*, labN.must_pass.*). A program of its own so that a student's
// `make labN` compiles only the runner and the report renderer, not the instructor's batch
// grading (intake, exports, bubblewrap sandboxing, Slurm shards).
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "student_commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"labcheck: run a lab's checks as ctest does and render its HTML grade report"};
  app.set_version_flag("--version", std::string(LABGRADE_VERSION));
  app.require_subcommand(1);
  grader::StudentCommands commands(app);
  CLI11_PARSE(app, argc, argv);
  try {
    return commands.run().value_or(2);
  } catch (const std::exception& error) {
    // What a command did not word itself (a corrupt spec): one line, never a trace.
    std::cerr << "labcheck: " << error.what() << "\n";
    return 2;
  }
}
