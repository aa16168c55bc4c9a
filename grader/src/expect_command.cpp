#include "expect_command.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>

#include <fmt/format.h>

#include "common/bwrap.hpp"
#include "common/launcher_bwrap.hpp"
#include "contract/exit_status.hpp"
#include "contract/seed.hpp"
#include "contract/spec.hpp"
#include "lab_program_run.hpp"

namespace grader {
namespace {

namespace exit_status = contract::exit_status;

bool runnable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

// The lab program and, on a GPU, the submission's launcher beside it (LAB_LAUNCHER) must be built;
// "" when they are, else the line that says which is not.
std::string not_built(const std::string& program) {
  const char* launcher = std::getenv("LAB_LAUNCHER");
  if (launcher && *launcher && !runnable(launcher)) return fmt::format("not built: {}", launcher);
  if (!runnable(program)) return fmt::format("not built: {}", program);
  return "";
}

// The bubblewrap the lab program would use (common/bwrap.hpp's one rule) when it runs here with
// the launcher's options, else "".
std::string bubblewrap_here() {
  const auto found = common::find_bwrap();
  if (found.path.empty() || !common::bubblewrap_runs_here(found.path)) return "";
  return found.path;
}

// The named checks' run lacked an evidence kind (a speed check runs no kernel under the
// emulation): the suites' correctness checks run the kernel, into a folder of their own, quietly;
// their verdicts judge nothing. nullopt when no such run is due.
std::optional<std::vector<contract::CheckRecord>> evidence_rerun(const contract::LabSpec& spec,
                                                                 const ExpectOptions& options,
                                                                 const LabProgramRun& first,
                                                                 std::uint64_t seed) {
  const auto& expected = options.failure;
  const auto& records = first.outcome.records;
  if (expected.evidence.empty() || expected.evidence_checks.empty() ||
      !contract::ran_under_emulation(records) ||
      missing_evidence(expected.evidence, records).empty()) {
    return std::nullopt;
  }
  const std::string folder = options.results_dir + "-evidence";
  fresh_results_folder(folder);
  LabProgramRequest request;
  request.command = options.command;
  request.checks = split_checks(expected.evidence_checks);
  request.seed = seed;
  request.show_output = false;
  auto rerun = run_lab_program(spec, request);
  if (!rerun) return std::vector<contract::CheckRecord>{};
  for (const auto& record : rerun->outcome.records) contract::write_record(folder, record);
  return std::move(rerun->outcome.records);
}

// Every named check must be one of the spec's: a typo would otherwise read as "no record".
bool checks_in_spec(const contract::LabSpec& spec, const ExpectOptions& options) {
  for (const auto& check : options.checks) {
    if (!spec.find(check)) {
      std::fprintf(stderr, "labcheck expect: %s has no check '%s'\n", options.spec.c_str(),
                   check.c_str());
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<std::string> split_checks(const std::string& filter) {
  std::vector<std::string> ids;
  std::istringstream in(filter);
  for (std::string id; std::getline(in, id, ':');) {
    if (!id.empty()) ids.push_back(id);
  }
  return ids;
}

int expect_command(const ExpectOptions& options) {
  if (options.command.empty()) {
    std::fprintf(stderr, "labcheck expect: no program to run (give it after --)\n");
    return exit_status::bad_setup;
  }
  if (const auto line = not_built(options.command.front()); !line.empty()) {
    std::printf("%s\n", line.c_str());
    return exit_status::skipped;
  }
  const auto isolation = options.failure.isolation;
  if (isolation == IsolationExpectation::by_hand && ::geteuid() != 0) {
    std::printf(
        "skipped: without bubblewrap only root can isolate the launcher (a uid of its own)\n");
    return exit_status::skipped;
  }
  contract::LabSpec spec;
  LabProgramRequest request;
  try {
    spec = contract::load_spec(options.spec);
    // The student's replay (LAB_SEED=... ctest -R ...) works as with the program alone.
    request.seed = contract::choose_seed(std::nullopt);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "labcheck expect: %s\n", error.what());
    return exit_status::bad_setup;
  }
  if (!checks_in_spec(spec, options)) return exit_status::bad_setup;
  request.command = options.command;
  request.checks = options.checks;
  if (isolation != IsolationExpectation::none) {
    // The seed on the command line too, where a launcher would find it if it could read the lab
    // program's (or its PID namespace's init's) /proc cmdline: the red-team cases look there.
    request.command.insert(request.command.begin() + 1, {"--seed", std::to_string(request.seed)});
  }
  fresh_results_folder(options.results_dir);
  auto run = run_lab_program(spec, request);
  if (!run) {
    std::fprintf(stderr, "labcheck expect: interrupted\n");
    return kInterrupted;
  }
  if (!keep_records(options.results_dir, *run, "")) return exit_status::fail;
  const RunSeen seen{options.checks, run->outcome.records, run->output, run->isolation_lines};
  Judgement judgement;
  if (options.must_pass) {
    judgement = judge_pass(seen);
  } else {
    FailureContext context;
    const auto rerun = evidence_rerun(spec, options, *run, request.seed);
    if (rerun) context.evidence_rerun = &*rerun;
    if (isolation == IsolationExpectation::bubblewrap) context.bubblewrap_here = bubblewrap_here();
    judgement = judge_failure(options.failure, seen, context);
  }
  for (const auto& line : judgement.lines) std::printf("%s\n", line.c_str());
  return judgement.status;
}

}  // namespace grader
