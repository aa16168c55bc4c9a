#include "run_command.hpp"

#include <cstdio>
#include <exception>
#include <fstream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "batch/verdict_table.hpp"
#include "contract/exit_status.hpp"
#include "contract/record.hpp"
#include "contract/seed.hpp"
#include "contract/spec.hpp"
#include "isolation_lines.hpp"
#include "lab_program_run.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;

// The checks to run: the one asked for, or every check of the spec; nullopt (and why, on stderr)
// when the spec has no such check.
std::optional<std::vector<std::string>> checks_to_run(const RunOptions& options,
                                                      const contract::LabSpec& spec) {
  std::vector<std::string> checks;
  if (options.check.empty()) {
    for (const auto& check : spec.checks) checks.push_back(check.id);
  } else if (spec.find(options.check)) {
    checks.push_back(options.check);
  } else {
    std::fprintf(stderr, "labgrade run: %s has no check '%s'\n", options.spec.c_str(),
                 options.check.c_str());
    return std::nullopt;
  }
  return checks;
}

}  // namespace

int run_check_command(const RunOptions& options) {
  contract::LabSpec spec;
  try {
    spec = contract::load_spec(options.spec);
  } catch (const contract::SpecError& error) {
    std::fprintf(stderr, "labgrade run: %s\n", error.what());
    return exit_status::bad_setup;
  }
  const auto checks = checks_to_run(options, spec);
  if (!checks) return exit_status::bad_setup;
  if (options.command.empty()) {
    std::fprintf(stderr, "labgrade run: no program to run (give it after --)\n");
    return exit_status::bad_setup;
  }
  LabProgramRequest request;
  try {
    // The student's replay (LAB_SEED=... ctest -R ...) works as with the program alone.
    request.seed = contract::choose_seed(std::nullopt);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labgrade run: LAB_SEED: %s\n", error.what());
    return exit_status::bad_setup;
  }
  prepare_results_folder(options.results_dir);
  forget_earlier_records(options.results_dir, *checks);

  request.command = options.command;
  request.checks = *checks;
  // One check: the limit given; all of them: each its spec's own.
  request.max_check_seconds = options.check.empty() ? 0 : options.timeout_s;
  auto run = run_lab_program(spec, request);
  if (!run) {
    std::fprintf(stderr, "labgrade run: interrupted\n");
    return kInterrupted;
  }
  std::string not_isolated;
  if (const auto why = why_not_isolated(run->isolation_lines); !why.empty()) {
    not_isolated = fmt::format("{}: its verdicts are a self-check ({})", kNotIsolatedNote, why);
    std::printf("labgrade run: %s\n", not_isolated.c_str());
  }
  const auto status = keep_records(options.results_dir, *run, not_isolated);
  if (!status) return exit_status::fail;
  for (const auto& problem : run->outcome.problems) {
    std::fprintf(stderr, "labgrade run: %s\n", problem.c_str());
  }
  // One check: its verdict, for ctest. All of them: the run itself went through; each check's
  // own test (labgrade verdict) says how it went.
  return options.check.empty() ? exit_status::pass : *status;
}

int verdict_command(const VerdictOptions& options) {
  contract::CheckRecord record;
  try {
    record = contract::read_record(contract::record_path(options.results_dir, options.check));
  } catch (const std::exception&) {
    std::printf(
        "%s: no result: the lab program's run did not reach this check (see the test "
        "labN.run)\n",
        options.check.c_str());
    return exit_status::fail;
  }
  std::ifstream log(output_path(options.results_dir, options.check));
  std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::printf("%s: %s: %s\n", record.check.c_str(),
              std::string(contract::verdict_words(record.verdict)).c_str(), record.reason.c_str());
  return batch::ctest_status(record.verdict);
}

}  // namespace grader
