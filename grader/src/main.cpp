// labgrade: the command-line tool for grade reports, ctest's runs and batch grading.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "batch/batch.hpp"
#include "batch_options_cli.hpp"
#include "report_command.hpp"
#include "run_command.hpp"
#include "shard_command.hpp"
#include "timings_command.hpp"

namespace {

CLI::App* add_report_command(CLI::App& app, grader::ReportOptions& report) {
  auto* command =
      app.add_subcommand("report", "Render a lab's result records as one HTML grade report");
  command->add_option("--spec", report.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--results", report.results_dir, "Folder of result records (*.json)")
      ->required();
  command->add_option("--out", report.out, "The HTML file to write")->required();
  command->add_option("--kernel-source", report.kernel_source,
                      "Which kernel.cu was graded (shown in the report)");
  command->add_option("--handout", report.handout, "The lab's handout (shown in the report)");
  command->add_option("--student", report.student, "Student name (batch grading)");
  command->add_option("--summary", report.summary_file,
                      "Also write the one-line summary to this file");
  return command;
}

CLI::App* add_run_command(CLI::App& app, grader::RunOptions& run) {
  auto* command = app.add_subcommand(
      "run",
      "Run one check of a lab program as ctest does: its record from the grader channel, judged "
      "as labgrade batch judges it, written to --results");
  command->add_option("--spec", run.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--results", run.results_dir, "Folder of result records")->required();
  command->add_option("--check", run.check,
                      "The check id, e.g. CopyMatrix.Correctness (default: every check, in one "
                      "run of the program)");
  command->add_option("--timeout", run.timeout_s, "Seconds before the check is stopped")
      ->check(CLI::PositiveNumber);
  command->add_option("command", run.command, "The lab program and its arguments (after --)")
      ->required();
  return command;
}

CLI::App* add_verdict_command(CLI::App& app, grader::VerdictOptions& verdict) {
  auto* command = app.add_subcommand(
      "verdict", "Show one check's output and verdict from a `labgrade run` of every check");
  command->add_option("--results", verdict.results_dir, "Folder of result records")->required();
  command->add_option("--check", verdict.check, "The check id")->required();
  return command;
}

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
  return command;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"labgrade: grade CUDA matrix labs and render HTML grade reports"};
  app.set_version_flag("--version", std::string(LABGRADE_VERSION));
  app.require_subcommand(1);

  grader::ReportOptions report;
  auto* report_cmd = add_report_command(app, report);
  grader::RunOptions run;
  auto* run_cmd = add_run_command(app, run);
  grader::VerdictOptions verdict;
  auto* verdict_cmd = add_verdict_command(app, verdict);
  std::vector<std::string> timing_dirs;
  auto* timings_cmd = add_timings_command(app, timing_dirs);
  grader::BatchOptionsCli batch;
  auto* batch_cmd = add_batch_command(app, batch);
  grader::ShardCommand shard(app);

  CLI11_PARSE(app, argc, argv);
  if (*report_cmd) return grader::report_command(report);
  if (*run_cmd) return grader::run_check_command(run);
  if (*verdict_cmd) return grader::verdict_command(verdict);
  if (*timings_cmd) return grader::timings_command(timing_dirs);
  if (shard.chosen()) return shard.run();
  if (*batch_cmd) return batch::run_batch(grader::parsed_batch_options(batch));
  return 2;
}
