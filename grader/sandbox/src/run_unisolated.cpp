// run_unisolated(): the program started and watched, nothing contained (a student's machine).
#include "run_parts.hpp"

namespace sandbox {

Result run_unisolated(const Policy& policy, const std::vector<std::string>& argv,
                      const Channel& channel) {
  return run_guarded(policy, [&](Result& result) {
    check_policy(policy, argv);
    if (policy.isolate || policy.resource_limits) {
      throw SetupError(
          "this run asks for isolation or resource limits, which only labgrade's sandbox gives "
          "(sandbox::run)");
    }
    SpawnSpec spec;
    spec.env = process_environment(policy);
    spec.nice = policy.nice;
    start_program_itself(policy, argv, spec);
    read_process_end(start_and_watch(policy, channel, std::move(spec), {}), result);
  });
}

}  // namespace sandbox
