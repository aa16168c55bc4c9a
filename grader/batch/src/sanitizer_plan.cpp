#include "batch/sanitizer_plan.hpp"

#include <algorithm>
#include <utility>

#include "sandbox/sandbox.hpp"

namespace batch {

SanitizerPlan sanitizer_plan_of(const Kit& kit, bool emulated_pass) {
  SanitizerPlan plan;
  if (kit.backend != "cuda" || kit.sanitizer.empty() || kit.spec.sanitizer_tools.empty()) {
    return plan;
  }
  SanitizerPass pass{kit.sanitizer, kit.spec.sanitizer_tools, {"kernel.cu"}};
  pass.as_root = !sandbox::every_uid_can_run(kit.sanitizer);
  for (const auto& name : kit.optional_sources) pass.student_files.push_back(name);
  if (emulated_pass) {
    plan.fallback = std::move(pass);
    return plan;
  }
  // memcheck in the correctness run itself: a pass of its own cost a second process per
  // submission.
  pass.hosted_memcheck = std::ranges::find(pass.tools, "memcheck") != pass.tools.end();
  plan.in_runs = std::move(pass);
  return plan;
}

}  // namespace batch
