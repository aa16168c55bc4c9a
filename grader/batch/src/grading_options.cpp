#include "batch/grading_options.hpp"

namespace batch {
namespace {

// The grading options, once: each with its name in the plan. `Options` is BatchOptions, const
// or not, so that one list serves writing and reading.
template <typename Options, typename Visit>
void for_each_grading_option(Options& options, Visit&& visit) {
  visit("max_check_seconds", options.max_check_seconds);
  visit("build_seconds", options.build_seconds);
  visit("memory_bytes", options.memory_bytes);
  visit("max_processes", options.max_processes);
  visit("shared_runs_per_gpu", options.shared_runs_per_gpu);
  visit("unsandboxed", options.unsandboxed);
  visit("root_in_sandbox", options.root_in_sandbox);
  visit("verify_with_reference", options.verify_with_reference);
  visit("emulated_pass", options.emulated_pass);
}

}  // namespace

nlohmann::json grading_options_json(const BatchOptions& options) {
  nlohmann::json saved = nlohmann::json::object();
  for_each_grading_option(options,
                          [&](const char* name, const auto& value) { saved[name] = value; });
  return saved;
}

void apply_grading_options(const nlohmann::json& saved, BatchOptions& options) {
  for_each_grading_option(options, [&](const char* name, auto& value) {
    value = saved.at(name).template get<std::remove_reference_t<decltype(value)>>();
  });
}

}  // namespace batch
