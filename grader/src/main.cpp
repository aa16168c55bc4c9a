// labgrade: the command-line tool for grade reports, ctest's runs and batch grading.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "autograder_command.hpp"
#include "batch/batch.hpp"
#include "batch_options_cli.hpp"
#include "package_command.hpp"
#include "shard_command.hpp"
#include "student_commands.hpp"
#include "timings_command.hpp"

namespace {

CLI::App* add_timings_command(CLI::App& app, std::vector<std::string>& timing_dirs) {
  auto* command = app.add_subcommand(
      "timings", "Print the speed records of results folders as a Markdown table");
  command->add_option("results", timing_dirs, "Folders of result records")->required();
  return command;
}

CLI::App* add_batch_command(CLI::App& app, grader::BatchOptionsCli& batch) {
  auto* command = app.add_subcommand(
      "batch",
      "Grade a folder of student submissions of one lab: sandboxed builds and runs, a report "
      "per student, the class gradebook (HTML, CSV), Gradescope results and JUnit XML");
  grader::add_batch_options(*command, batch, "Output folder (created; re-running resumes)");
  grader::add_machine_options(*command, batch.options);
  grader::add_lms_options(*command, batch.options);
  return command;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"labgrade: grade CUDA matrix labs and render HTML grade reports"};
  app.set_version_flag("--version", std::string(LABGRADE_VERSION));
  app.require_subcommand(1);

  // run, verdict, report: the commands ctest runs (labcheck has them too).
  grader::StudentCommands student(app);

  std::vector<std::string> timing_dirs;
  auto* timings_cmd = add_timings_command(app, timing_dirs);
  grader::BatchOptionsCli batch;
  auto* batch_cmd = add_batch_command(app, batch);
  grader::ShardCommand shard(app);
  grader::PackageCommand package(app);
  grader::AutograderCommand autograder(app);

  CLI11_PARSE(app, argc, argv);
  try {
    if (const auto status = student.run()) return *status;
    if (*timings_cmd) return grader::timings_command(timing_dirs);
    if (shard.chosen()) return shard.run();
    if (package.chosen()) return package.run();
    if (autograder.chosen()) return autograder.run();
    if (*batch_cmd) return batch::run_batch(grader::parsed_batch_options(batch));
  } catch (const std::exception& error) {
    // What a command did not word itself (a corrupt spec or kit): one line, never a trace.
    std::cerr << "labgrade: " << error.what() << "\n";
  }
  return 2;
}
