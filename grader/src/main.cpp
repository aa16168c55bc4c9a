// labgrade: the command-line tool for grade reports (and, later, batch grading).
#include <CLI/CLI.hpp>

#include "report_command.hpp"
#include "run_command.hpp"
#include "timings_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"labgrade: grade CUDA matrix labs and render HTML grade reports"};
  app.set_version_flag("--version", std::string(LABGRADE_VERSION));
  app.require_subcommand(1);

  grader::ReportOptions report;
  auto* report_cmd =
      app.add_subcommand("report", "Render a lab's result records as one HTML grade report");
  report_cmd->add_option("--spec", report.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  report_cmd->add_option("--results", report.results_dir, "Folder of result records (*.json)")
      ->required();
  report_cmd->add_option("--out", report.out, "The HTML file to write")->required();
  report_cmd->add_option("--kernel-source", report.kernel_source,
                         "Which kernel.cu was graded (shown in the report)");
  report_cmd->add_option("--handout", report.handout, "The lab's handout (shown in the report)");
  report_cmd->add_option("--student", report.student, "Student name (batch grading)");
  report_cmd->add_option("--summary", report.summary_file,
                         "Also write the one-line summary to this file");

  grader::RunOptions run;
  auto* run_cmd = app.add_subcommand(
      "run", "Run one check of a lab program with a time limit and record how it ended");
  run_cmd->add_option("--spec", run.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  run_cmd->add_option("--results", run.results_dir, "Folder of result records")->required();
  run_cmd->add_option("--check", run.check, "The check id, e.g. CopyMatrix.Correctness")
      ->required();
  run_cmd->add_option("--timeout", run.timeout_s, "Seconds before the check is stopped")
      ->check(CLI::PositiveNumber);
  run_cmd->add_option("command", run.command, "The lab program and its arguments (after --)")
      ->required();

  std::vector<std::string> timing_dirs;
  auto* timings_cmd = app.add_subcommand(
      "timings", "Print the speed records of results folders as a Markdown table");
  timings_cmd->add_option("results", timing_dirs, "Folders of result records")->required();

  CLI11_PARSE(app, argc, argv);
  if (*report_cmd) return grader::report_command(report);
  if (*run_cmd) return grader::run_check_command(run);
  if (*timings_cmd) return grader::timings_command(timing_dirs);
  return 2;
}
