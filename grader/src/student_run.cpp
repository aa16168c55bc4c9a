#include "student_run.hpp"

#include <csignal>
#include <cstdio>
#include <utility>

namespace grader {
namespace {

std::atomic<bool> g_interrupted{false};
// C linkage ignores the anonymous namespace: the name must differ from labgrade batch's handler.
extern "C" void on_student_run_interrupted(int) { g_interrupted = true; }

}  // namespace

sandbox::Policy student_machine_policy() {
  sandbox::Policy policy;
  policy.isolate = false;
  policy.inherit_environment = true;
  policy.resource_limits = false;
  return policy;
}

batch::RunRequest student_run_request(std::vector<std::string> command,
                                      std::vector<std::string> checks, std::uint64_t seed) {
  batch::RunRequest request;
  request.command = std::move(command);
  request.checks = std::move(checks);
  request.seed = seed;
  request.startup_seconds = kStartupSeconds;
  request.policy = student_machine_policy();
  request.interrupted = &g_interrupted;
  request.on_output = show_output;
  std::signal(SIGINT, on_student_run_interrupted);
  std::signal(SIGTERM, on_student_run_interrupted);
  std::fflush(stdout);
  return request;
}

void show_output(std::string_view piece) {
  std::fwrite(piece.data(), 1, piece.size(), stdout);
  std::fflush(stdout);
}

}  // namespace grader
