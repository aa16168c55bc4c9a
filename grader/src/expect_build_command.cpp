#include "expect_build_command.hpp"

#include <cstdio>
#include <filesystem>

#include "contract/exit_status.hpp"
#include "expectation.hpp"
#include "sandbox/core.hpp"
#include "student_run.hpp"

namespace grader {
namespace {

// Under ctest's TIMEOUT of the test (600 s), so that a stuck build says so itself.
constexpr double kBuildSeconds = 570;

// The target the build command names (after --target), for the words.
std::string target_of(const std::vector<std::string>& command) {
  for (std::size_t i = 0; i + 1 < command.size(); ++i) {
    if (command[i] == "--target") return command[i + 1];
  }
  return "the kernel";
}

}  // namespace

int expect_build_failure_command(const BuildFailureOptions& options) {
  namespace exit_status = contract::exit_status;
  if (options.command.empty()) {
    std::fprintf(stderr, "labcheck expect build-fail: no build command (give it after --)\n");
    return exit_status::bad_setup;
  }
  if (!options.prerequisite.empty() && !std::filesystem::exists(options.prerequisite)) {
    std::printf("not built: %s (make all_known_wrong)\n", options.prerequisite.c_str());
    return exit_status::skipped;
  }
  // The build is the instructor's own, on their machine: nothing to contain, only time watched.
  sandbox::Policy policy = student_machine_policy();
  policy.time_limit_s = kBuildSeconds;
  policy.max_output_bytes = 64u << 20;
  const auto result = sandbox::run_unisolated(policy, options.command);
  std::fwrite(result.output.data(), 1, result.output.size(), stdout);
  const bool ended_by_itself = !result.timed_out && !result.stopped && !result.signal &&
                               !result.failed_to_start && !result.out_of_memory;
  const int status = ended_by_itself ? result.exit_code : -1;
  const auto judgement =
      judge_build_failure(target_of(options.command), status, result.output, options.sentences);
  for (const auto& line : judgement.lines) std::printf("%s\n", line.c_str());
  return judgement.status;
}

}  // namespace grader
