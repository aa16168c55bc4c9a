// `labcheck expect`'s command line (expect_command.hpp): the mode, then the options each mode
// takes, checked here so that each mode's run gets only what it asks for.
#include <cstdio>
#include <sstream>

#include "contract/exit_status.hpp"
#include "expect_build_command.hpp"
#include "expect_command.hpp"
#include "expect_view_command.hpp"

namespace grader {
namespace {

// "a b  c" -> a, b, c.
std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The lines of `text` ("--says A --says B" arrive joined by newlines).
std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

IsolationExpectation isolation_from(const std::string& name) {
  if (name == "or-skip") return IsolationExpectation::or_skip;
  if (name == "by-hand") return IsolationExpectation::by_hand;
  if (name == "bubblewrap") return IsolationExpectation::bubblewrap;
  return IsolationExpectation::none;
}

}  // namespace

ExpectCommand::ExpectCommand(CLI::App& app)
    : expect_cmd_(app.add_subcommand(
          "expect",
          "A self-test of the checks: run the lab program with a known-wrong (fail) or "
          "known-right (pass) launcher, LAB_LAUNCHER, as `run` does, and say whether every named "
          "check failed (passed) as it must; or build a kernel whose build must fail "
          "(build-fail)")) {
  auto& command = *expect_cmd_;
  // A positional, not a subcommand of its own: CLI11 gives what follows `--` of a nested
  // subcommand to its parent.
  command
      .add_option("mode", mode_,
                  "fail: every named check must fail; pass: every one pass; build-fail: the "
                  "build after -- must fail saying every --says sentence; launcher-view: the "
                  "launcher isolated by hand (root) must see the view it must have")
      ->required()
      ->check(CLI::IsMember({"fail", "pass", "build-fail", "launcher-view"}));
  run_options_ = {
      command.add_option("--spec", options_.spec, "fail, pass: the lab's spec.json")
          ->check(CLI::ExistingFile),
      command.add_option("--results", options_.results_dir,
                         "fail, pass: folder for the run's result records (emptied first)"),
      // Plain strings: a vector option before `--` makes this CLI11 give the program's own
      // options (--spec) to labcheck.
      command.add_option("--checks", checks_,
                         "fail, pass: the checks the kernel is held to, as in --gtest_filter: "
                         "A.B:C.D"),
  };
  add_failure_options(command);
  build_options_ = {
      command.add_option("--prerequisite", build_.prerequisite,
                         "build-fail: a file the build needs built first (skipped without it)"),
      command.add_option("--says", says_, "build-fail: a sentence the failed build must say")
          ->multi_option_policy(CLI::MultiOptionPolicy::Join),
  };
  command
      .add_option("command", command_, "The lab program (or the build) and its arguments, after --")
      ->required();
}

// What only `expect fail` asks (expectation.hpp, FailureExpectation).
void ExpectCommand::add_failure_options(CLI::App& command) {
  auto& failure = options_.failure;
  failure_options_ = {
      command.add_flag("--any", failure.any,
                       "fail: caught when at least one named check fails (a race a schedule may "
                       "not show in every check)"),
      command.add_option("--reason", failure.reason,
                         "fail: words a failed check's record must hold to count as caught"),
      command.add_option("--diagnosis", diagnoses_,
                         "fail: the mistake's ids (// diagnosis:), separated by spaces: every "
                         "diagnosis given must be one, and one check must name the first (held "
                         "to it on a GPU only)"),
      command.add_option("--evidence", evidence_,
                         "fail: evidence kinds (// evidence:), separated by spaces, the records "
                         "must carry under the CPU emulation"),
      command.add_option("--evidence-checks", failure.evidence_checks,
                         "fail: checks (A.B:C.D) run again for the facts when the named checks' "
                         "run lacks a kind"),
      command
          .add_option("--isolation", isolation_,
                      "fail: how the launcher must have been kept apart: or-skip (a red-team "
                      "case: skipped, not failed, in a run that was not isolated), by-hand (root, "
                      "no bubblewrap), bubblewrap (in it wherever it runs here)")
          ->check(CLI::IsMember({"or-skip", "by-hand", "bubblewrap"})),
  };
}

// False (and why, on stderr) when an option of `options` is given (`given` true) or missing
// (`given` false) in this mode.
bool ExpectCommand::options_fit(const std::vector<CLI::Option*>& options, bool given) const {
  for (const auto* option : options) {
    if ((option->count() > 0) == given) {
      std::fprintf(stderr, "labcheck expect %s: %s %s\n", mode_.c_str(), option->get_name().c_str(),
                   given ? "is not for this mode" : "is required");
      return false;
    }
  }
  return true;
}

int ExpectCommand::run() {
  namespace exit_status = contract::exit_status;
  if (mode_ == "build-fail") {
    if (!options_fit(run_options_, true) || !options_fit(failure_options_, true)) {
      return exit_status::bad_setup;
    }
    build_.sentences = split_lines(says_);
    build_.command = command_;
    return expect_build_failure_command(build_);
  }
  options_.must_pass = mode_ == "pass";
  const bool view = mode_ == "launcher-view";
  if (!options_fit(run_options_, false) || !options_fit(build_options_, true) ||
      ((options_.must_pass || view) && !options_fit(failure_options_, true))) {
    return exit_status::bad_setup;
  }
  options_.checks = split_checks(checks_);
  if (view) {
    if (options_.checks.size() != 1) {
      std::fprintf(stderr, "labcheck expect launcher-view: --checks names one check\n");
      return exit_status::bad_setup;
    }
    return expect_launcher_view_command(
        {options_.spec, options_.results_dir, options_.checks.front(), command_});
  }
  options_.command = command_;
  auto& failure = options_.failure;
  failure.diagnoses = split_words(diagnoses_);
  failure.evidence = split_words(evidence_);
  failure.isolation = isolation_from(isolation_);
  return expect_command(options_);
}

}  // namespace grader
