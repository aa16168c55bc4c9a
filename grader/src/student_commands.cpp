#include "student_commands.hpp"

namespace grader {

StudentCommands::StudentCommands(CLI::App& app)
    : report_cmd_(
          app.add_subcommand("report", "Render a lab's result records as one HTML grade report")),
      run_cmd_(app.add_subcommand(
          "run",
          "Run one check of a lab program as ctest does: its record from the grader channel, "
          "judged as labgrade batch judges it, written to --results")),
      sanitize_cmd_(app.add_subcommand(
          "sanitize",
          "Run compute-sanitizer over a lab program as labgrade batch does: its findings fail the "
          "checks of the run in --results, at the line of your kernel")),
      verdict_cmd_(app.add_subcommand(
          "verdict", "Show one check's output and verdict from a `labgrade run` of every check")),
      expect_(app) {
  report_cmd_->add_option("--spec", report_.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  report_cmd_->add_option("--results", report_.results_dir, "Folder of result records (*.json)")
      ->required();
  report_cmd_->add_option("--out", report_.out, "The HTML file to write")->required();
  report_cmd_->add_option("--kernel-source", report_.kernel_source,
                          "Which kernel.cu was graded (shown in the report)");
  report_cmd_->add_option("--handout", report_.handout, "The lab's handout (shown in the report)");
  report_cmd_->add_option("--student", report_.student, "Student name (batch grading)");
  report_cmd_->add_option("--summary", report_.summary_file,
                          "Also write the one-line summary to this file");

  run_cmd_->add_option("--spec", run_.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  run_cmd_->add_option("--results", run_.results_dir, "Folder of result records")->required();
  run_cmd_->add_option("--check", run_.check,
                       "The check id, e.g. CopyMatrix.Correctness (default: every check, in one "
                       "run of the program)");
  run_cmd_
      ->add_option("--timeout", run_.timeout_s,
                   "Seconds before the check is stopped (default: the spec's timeout_s)")
      ->check(CLI::PositiveNumber);
  run_cmd_->add_option("command", run_.command, "The lab program and its arguments (after --)")
      ->required();

  add_sanitize_options();

  verdict_cmd_->add_option("--results", verdict_.results_dir, "Folder of result records")
      ->required();
  verdict_cmd_->add_option("--check", verdict_.check, "The check id")->required();
}

void StudentCommands::add_sanitize_options() {
  sanitize_cmd_->add_option("--spec", sanitize_.spec, "The lab's spec.json")
      ->required()
      ->check(CLI::ExistingFile);
  sanitize_cmd_->add_option("--results", sanitize_.results_dir, "Folder of result records")
      ->required();
  sanitize_cmd_->add_option("--sanitizer", sanitize_.sanitizer,
                            "compute-sanitizer's path (empty: not found; the test is skipped)");
  sanitize_cmd_->add_option("--tool", sanitize_.tools,
                            "memcheck or racecheck (default: the tools the spec names)");
  sanitize_cmd_->add_option("--student-file", sanitize_.student_files,
                            "A file whose findings are charged (default: kernel.cu, bonus.cu)");
  sanitize_cmd_->add_flag("--expect-findings", sanitize_.expect_findings,
                          "A known-wrong kernel: pass only when a finding is charged to a check");
  sanitize_cmd_->add_flag("--expect-no-findings", sanitize_.expect_no_findings,
                          "A right kernel: pass only when no finding is charged or in the kit");
  sanitize_cmd_
      ->add_option("command", sanitize_.command, "The lab program and its arguments (after --)")
      ->required();
}

std::optional<int> StudentCommands::run() {
  if (report_cmd_->parsed()) return report_command(report_);
  if (run_cmd_->parsed()) return run_check_command(run_);
  if (sanitize_cmd_->parsed()) return sanitize_command(sanitize_);
  if (verdict_cmd_->parsed()) return verdict_command(verdict_);
  if (expect_.chosen()) return expect_.run();
  return std::nullopt;
}

}  // namespace grader
