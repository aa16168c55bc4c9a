#include "autograder_command.hpp"

#include <cstdio>
#include <exception>

#include "batch_options_cli.hpp"
#include "package_command.hpp"

namespace grader {

AutograderCommand::AutograderCommand(CLI::App& app) {
  command_ = app.add_subcommand(
      "autograder",
      "Grade one submission on an autograder platform (what a `labgrade package` runs): labgrade "
      "batch on a class of one, the outcome written as the platform's results.json");
  add_platform_and_lab(command_, options_.platform, options_.lab);
  command_->add_option("submission", options_.submission, "The folder of the student's files")
      ->required();
  command_->add_option("results", options_.results, "The results.json to write")->required();
  command_->add_option("--kit", options_.kit_dir, "The lab's grading kit")->required();
  command_->add_option("--work", options_.work, "Scratch folder (emptied parts are replaced)")
      ->required();
  command_
      ->add_option("--sandbox", options_.sandbox,
                   "auto: grade without bubblewrap where it cannot run, saying so; required: "
                   "refuse then")
      ->check(CLI::IsMember({"auto", "required"}));
  command_->add_option("--time-limit", options_.max_check_seconds, "Seconds each check may run")
      ->check(CLI::PositiveNumber);
}

int AutograderCommand::run() {
  options_.labgrade_executable = this_executable();
  try {
    return run_autograder(options_);
  } catch (const std::exception& error) {
    // The results could not be written (a folder that cannot be made, a full disk): the platform
    // reports the run as failed, and this line says why.
    std::fprintf(stderr, "labgrade autograder: %s\n", error.what());
    return 2;
  }
}

}  // namespace grader
